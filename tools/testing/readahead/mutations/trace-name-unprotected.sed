# The trace reads d_name.name directly, as before %pD.
# file: mm/readahead_debug.c
s/pr_info(READAHEAD_TRACE_FMT_NAME("%pD") "\\n", pattern,/pr_info(READAHEAD_TRACE_FMT "\\n", pattern,/
s/MINOR(sb->s_dev), sb->s_id, inode->i_ino, ractl->file,/MINOR(sb->s_dev), sb->s_id, inode->i_ino, ractl->file->f_path.dentry->d_name.name,/
