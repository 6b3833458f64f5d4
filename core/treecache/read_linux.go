package treecache

import (
	"io"
	"syscall"
	"time"
)

// readEntry reads a whole entry file into a pooled buffer, and returns it
// with the file's modification time. It opens the file through system
// calls: package os would register it with the runtime's poller (which
// refuses a regular file) and set it blocking again, three calls more
// than reading it takes, for every entry a search loads.
func readEntry(file string) ([]byte, time.Time, error) {
	var (
		fd  int
		err error
	)
	for {
		if fd, err = syscall.Open(file, syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, time.Time{}, err
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
		return nil, time.Time{}, err
	case st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size < headerSize || st.Size > maxEntry:
		return nil, time.Time{}, errCorrupt
	}
	b := entryBufs.Get(int(st.Size))
	for off := 0; off < len(b); {
		n, err := syscall.Read(fd, b[off:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == nil && n == 0:
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			entryBufs.Put(b)
			return nil, time.Time{}, err
		}
		off += n
	}
	return b, time.Unix(st.Mtim.Unix()), nil
}
