//go:build !js

package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watcher applies the changes made to a tree by anyone (an editor, git,
// a build) to its index as they happen: it watches every directory the
// build's walk enters (fsnotify: inotify on Linux, kqueue on BSD and
// macOS, ReadDirectoryChangesW on Windows) and hands the paths that
// changed to its Updater in batches, one transaction each.
type Watcher struct {
	u      *Updater
	fsw    *fsnotify.Watcher
	report func(*Stats, error)

	mu      sync.Mutex
	watched map[string]bool
	rescan  []string // directories watched late, to walk again

	// A failed batch (the database locked past its busy timeout by
	// another writer, say) is applied again, with what came since, after
	// backoff or with the next event.
	retry     []string
	retryFull bool
	failed    bool
	backoff   time.Duration

	cancel context.CancelFunc
	done   chan struct{}
}

// settle is how long a batch waits for more events after the last one:
// the files of one save or one git checkout land in one transaction.
const settle = 5 * time.Millisecond

// maxBackoff bounds the wait before a failed batch is tried again.
const maxBackoff = 30 * time.Second

// maxGather bounds how long events are gathered into one batch while
// they keep coming, so a stream of them is applied as it goes.
const maxGather = 200 * time.Millisecond

// Watch starts watching the tree of u's index; report, when set, hears
// each batch applied (its Stats) or failed (from the watcher's
// goroutine). It fails when the platform has no watching or its limits
// are reached (then Updater.Refresh before each query stands in for it).
// Stop it with Close.
func Watch(u *Updater, report func(*Stats, error)) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("index: watching %s: %w", u.root, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watcher{u: u, fsw: fsw, report: report, watched: map[string]bool{}, cancel: cancel, done: make(chan struct{})}
	dirs, err := w.walkDirs(ctx)
	if err == nil {
		err = w.add(dirs)
	}
	if err != nil {
		cancel()
		fsw.Close()
		return nil, err
	}
	u.mu.Lock()
	u.onDirs = w.late
	u.mu.Unlock()
	go w.loop(ctx)
	return w, nil
}

// Close stops watching, after the batch under way.
func (w *Watcher) Close() error {
	w.cancel()
	<-w.done
	w.u.mu.Lock()
	w.u.onDirs = nil
	w.u.mu.Unlock()
	if err := w.fsw.Close(); err != nil {
		return fmt.Errorf("index: closing the watcher: %w", err)
	}
	return nil
}

// Watched counts the directories watched.
func (w *Watcher) Watched() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.watched)
}

// walkDirs lists every directory the build's walk enters, one level at a
// time from the root.
func (w *Watcher) walkDirs(ctx context.Context) ([]string, error) {
	p := &planner{u: w.u, ctx: ctx, lists: map[string]*listing{}}
	out := []string{"."}
	for i := 0; i < len(out); i++ {
		subs, err := p.subdirs(out[i])
		if err != nil {
			return nil, err
		}
		out = append(out, subs...)
	}
	return out, nil
}

// add watches directories (relative to the root).
func (w *Watcher) add(dirs []string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range dirs {
		if w.watched[d] {
			continue
		}
		if err := w.fsw.Add(filepath.Join(w.u.root, filepath.FromSlash(d))); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // gone already: its removal is an event of its parent
			}
			return fmt.Errorf("index: watching %s: %w", d, err)
		}
		w.watched[d] = true
	}
	return nil
}

// late watches directories a batch found newly indexed, and has them
// walked again by the next batch: files written into them before the
// watch began were not events. It runs under the Updater's lock.
func (w *Watcher) late(dirs []string) {
	if err := w.add(dirs); err != nil && w.report != nil {
		w.report(nil, err)
	}
	w.mu.Lock()
	w.rescan = append(w.rescan, dirs...)
	w.mu.Unlock()
}

// forget drops the directories among paths that are gone (their
// watches went with them), so that one made again is watched again.
func (w *Watcher) forget(paths []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range w.u.rels(paths) {
		if _, err := os.Lstat(filepath.Join(w.u.root, filepath.FromSlash(p))); err == nil {
			continue
		}
		for d := range w.watched {
			if d == p || strings.HasPrefix(d, p+"/") {
				delete(w.watched, d)
			}
		}
	}
}

// loop gathers events into batches and applies them until ctx ends.
func (w *Watcher) loop(ctx context.Context) {
	defer close(w.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		w.mu.Lock()
		paths := w.rescan
		w.rescan = nil
		w.mu.Unlock()
		full := false
		var again <-chan time.Time
		if w.failed {
			again = time.After(w.backoff)
		}
		if len(paths) == 0 {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.fsw.Events:
				if !ok {
					return
				}
				paths = append(paths, ev.Name)
			case err, ok := <-w.fsw.Errors:
				if !ok {
					return
				}
				full = w.lost(err)
			case <-again:
			}
		}
		w.u.expect(1)
		if w.failed {
			paths = append(paths, w.retry...)
			full = full || w.retryFull
			w.retry, w.retryFull, w.failed = nil, false, false
			w.u.done(1) // the failed batch's pending count
		}
		deadline := time.Now().Add(maxGather)
		timer.Reset(settle)
	gather:
		for {
			select {
			case <-ctx.Done():
				timer.Stop()
				w.u.done(1)
				return
			case ev, ok := <-w.fsw.Events:
				if !ok {
					break gather
				}
				paths = append(paths, ev.Name)
				if time.Until(deadline) > settle {
					timer.Reset(settle)
				}
			case err, ok := <-w.fsw.Errors:
				if ok && w.lost(err) {
					full = true
				}
			case <-timer.C:
				break gather
			}
		}
		w.apply(ctx, paths, full)
	}
}

// lost handles an error of the watcher; it reports whether events were
// lost (a queue overflow), so that the whole index must be refreshed.
func (w *Watcher) lost(err error) bool {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		return true
	}
	if w.report != nil {
		w.report(nil, fmt.Errorf("index: watching %s: %w", w.u.root, err))
	}
	return false
}

// apply runs one batch.
func (w *Watcher) apply(ctx context.Context, paths []string, full bool) {
	defer w.u.done(1)
	var st *Stats
	var err error
	if full {
		w.u.mu.Lock()
		st, err = w.u.refresh(ctx)
		w.u.mu.Unlock()
		if err == nil {
			// Directories created while events were lost are watched now.
			var dirs []string
			if dirs, err = w.walkDirs(ctx); err == nil {
				err = w.add(dirs)
			}
		}
	} else {
		st, err = w.u.update(ctx, paths)
		w.forget(paths)
	}
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		// Kept for the next batch; still pending (Updating) until then.
		w.retry, w.retryFull, w.failed = paths, full, true
		w.backoff = min(max(2*w.backoff, time.Second), maxBackoff)
		w.u.expect(1)
	} else {
		w.backoff = 0
	}
	if w.report != nil {
		w.report(st, err)
	}
}
