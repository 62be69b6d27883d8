package record

// SetAfterBlock sets what is called after each block a reader of f read.
func SetAfterBlock(f *File, fn func(i int)) { f.afterBlock = fn }
