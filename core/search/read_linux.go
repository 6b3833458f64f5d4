package search

import "syscall"

// readDirect is Read without a workspace root, through system calls:
// opening a file through package os registers it with the runtime's
// poller (which refuses a regular file) and sets it blocking again, three
// calls more than reading it takes, for every file a search reads.
func (r *Reader) readDirect(f File) ([]byte, *Skipped) {
	fail := func(reason SkipReason, err error) ([]byte, *Skipped) {
		return nil, &Skipped{Path: f.Path, Reason: reason, Err: err}
	}
	var (
		fd  int
		err error
	)
	for {
		// openFlags do not wait on a fifo swapped in for the file since
		// the walk: it is opened, found not regular, and refused.
		if fd, err = syscall.Open(f.Abs, openFlags|syscall.O_CLOEXEC, 0); err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return fail(SkipUnreadable, err)
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	for {
		if err = syscall.Fstat(fd, &st); err != syscall.EINTR {
			break
		}
	}
	switch {
	case err != nil:
		return fail(SkipUnreadable, err)
	case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		return fail(SkipUnreadable, errNotRegular)
	case st.Size > r.maxSize:
		return fail(SkipTooLarge, nil)
	}
	src, err := readFD(fd, r.buffer(st.Size+1), st.Size, r.maxSize+1)
	if err != nil {
		return fail(SkipUnreadable, err)
	}
	if int64(len(src)) > r.maxSize {
		return fail(SkipTooLarge, nil)
	}
	if reason := Screen(src); reason != "" {
		return fail(reason, nil)
	}
	return src, nil
}

// readFD reads fd to its end, or to limit bytes, appending to b (sized for
// the file, as readAll's is). A read that returns less than it asked for
// once the size fstat gave is read ends it: a regular file reads short only
// at its end, so the read that would return nothing, one system call per
// file, is not made. A file found longer than its size is read on to its
// end.
func readFD(fd int, b []byte, size, limit int64) ([]byte, error) {
	for int64(len(b)) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		want := b[len(b):min(int64(cap(b)), limit)]
		n, err := syscall.Read(fd, want)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return b, err
		case n == 0:
			return b, nil
		}
		b = b[:len(b)+n]
		if n < len(want) && int64(len(b)) >= size {
			return b, nil
		}
	}
	return b, nil
}
