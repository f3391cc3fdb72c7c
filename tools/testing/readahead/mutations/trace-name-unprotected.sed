# The trace reads d_name.name directly, as before %pD.
s/RA_TRACE_FMT("%pD")/RA_TRACE_FMT("%s")/
s/sb->s_id, inode->i_ino, ractl->file, d->index, d->req,/sb->s_id, inode->i_ino, ractl->file->f_path.dentry->d_name.name, d->index, d->req,/
