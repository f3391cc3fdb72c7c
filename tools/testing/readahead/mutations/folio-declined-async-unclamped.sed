# A declined large folio leaves the async part larger than the window.
/A large folio may hold more than the async part/{N;d;}
