package rewrite

// ast-grep diffs a fix with the `similar` crate: its linear-space Myers
// (divide and conquer on the middle snake, common prefix and suffix taken
// first), then a compaction pass that slides each run of deletions and of
// insertions up and down over equal lines to merge it with its
// neighbours, then runs of changes merged into replacements. Where
// several edits are equally short, the lines they pair differ from a
// greedy Myers; DiffLines follows the crate's steps so that the hunks are
// the same. Its heuristics for inputs over 96 changed lines (anchors,
// disjoint and small-side fast paths) are not followed.

// diffStepBudget bounds the steps of one diff's searches (diagonals
// tried and lines compared along them): past it, the rest of a range is
// one deletion and one insertion, as similar does past its deadline.
const diffStepBudget = 20_000_000

// simOp is an operation of similar's DiffOp: equal, delete or insert.
type simOp struct {
	tag            byte // 'e', 'd' or 'i'
	oldIdx, oldLen int
	newIdx, newLen int
}

func (o simOp) oldEnd() int { return o.oldIdx + o.oldLen }
func (o simOp) newEnd() int { return o.newIdx + o.newLen }
func (o simOp) empty() bool { return o.oldLen == 0 && o.newLen == 0 }

// shift moves the op by n (negative: up); grow and shrink change its
// length at the start (left) or end.
func (o *simOp) shift(n int) { o.oldIdx += n; o.newIdx += n }
func (o *simOp) grow(n int) {
	if o.tag != 'i' {
		o.oldLen += n
	}
	if o.tag != 'd' {
		o.newLen += n
	}
}
func (o *simOp) growLeft(n int)    { o.shift(-n); o.grow(n) }
func (o *simOp) shrinkLeft(n int)  { o.grow(-n) }
func (o *simOp) shrinkRight(n int) { o.shift(n); o.grow(-n) }

// lineDiffer holds the two sides of a diff and the ops found so far.
type lineDiffer struct {
	a, b  []string
	ops   []simOp
	steps int
}

// DiffLines diffs two texts' lines (SplitLines) as ast-grep's diff
// library does and returns the ops, equal runs and changes alternating,
// to be cut into hunks by Hunks: every diff loupe shows (printer.Diff,
// the file tools' previews, the playground) pairs lines as ast-grep does.
func DiffLines(a, b []string) []DiffOp {
	d := &lineDiffer{a: a, b: b}
	d.conquer(0, len(a), 0, len(b))
	d.compact()
	var out []DiffOp
	for _, o := range d.ops {
		if o.empty() {
			continue
		}
		eq := o.tag == 'e'
		if n := len(out); n > 0 && out[n-1].Equal == eq {
			out[n-1].OldLen += o.oldLen
			out[n-1].NewLen += o.newLen
			continue
		}
		out = append(out, DiffOp{OldStart: o.oldIdx, OldLen: o.oldLen, NewStart: o.newIdx, NewLen: o.newLen, Equal: eq})
	}
	return out
}

// prefix is the common prefix length of a[a0:a1] and b[b0:b1].
func (d *lineDiffer) prefix(a0, a1, b0, b1 int) int {
	n := 0
	for a0+n < a1 && b0+n < b1 && d.a[a0+n] == d.b[b0+n] {
		n++
	}
	return n
}

// suffix is the common suffix length of a[a0:a1] and b[b0:b1].
func (d *lineDiffer) suffix(a0, a1, b0, b1 int) int {
	n := 0
	for a1-n > a0 && b1-n > b0 && d.a[a1-1-n] == d.b[b1-1-n] {
		n++
	}
	return n
}

func (d *lineDiffer) emit(tag byte, oldIdx, oldLen, newIdx, newLen int) {
	d.ops = append(d.ops, simOp{tag, oldIdx, oldLen, newIdx, newLen})
}

// conquer diffs a[a0:a1] against b[b0:b1].
func (d *lineDiffer) conquer(a0, a1, b0, b1 int) {
	if p := d.prefix(a0, a1, b0, b1); p > 0 {
		d.emit('e', a0, p, b0, p)
		a0, b0 = a0+p, b0+p
	}
	s := d.suffix(a0, a1, b0, b1)
	a1, b1 = a1-s, b1-s
	switch {
	case a0 == a1 && b0 == b1:
	case b0 == b1:
		d.emit('d', a0, a1-a0, b0, 0)
	case a0 == a1:
		d.emit('i', a0, 0, b0, b1-b0)
	default:
		if x, y, ok := d.middleSnake(a0, a1, b0, b1); ok {
			d.conquer(a0, x, b0, y)
			d.conquer(x, a1, y, b1)
		} else {
			d.emit('d', a0, a1-a0, b0, 0)
			d.emit('i', a0, 0, b0, b1-b0)
		}
	}
	if s > 0 {
		d.emit('e', a1, s, b1, s)
	}
}

// middleSnake finds where a shortest edit script of a[a0:a1] into
// b[b0:b1] crosses its middle, searching forwards and backwards at once;
// false when the step budget ran out.
func (d *lineDiffer) middleSnake(a0, a1, b0, b1 int) (int, int, bool) {
	n, m := a1-a0, b1-b0
	delta := n - m
	odd := delta&1 == 1
	dMax := (n+m+1)/2 + 1
	off := dMax + 1
	vf := make([]int, 2*dMax+3)
	vb := make([]int, 2*dMax+3)
	abs := func(v int) int {
		if v < 0 {
			return -v
		}
		return v
	}
	for dd := 0; dd < dMax; dd++ {
		d.steps += 2*dd + 2
		if d.steps > diffStepBudget {
			return 0, 0, false
		}
		for k := dd; k >= -dd; k -= 2 {
			var x int
			if k == -dd || k != dd && vf[off+k-1] < vf[off+k+1] {
				x = vf[off+k+1]
			} else {
				x = vf[off+k-1] + 1
			}
			y := x - k
			x0, y0 := x, y
			if x < n && y >= 0 && y < m {
				adv := d.prefix(a0+x, a1, b0+y, b1)
				x += adv
				d.steps += adv
			}
			vf[off+k] = x
			if odd && abs(k-delta) <= dd-1 && vf[off+k]+vb[off-(k-delta)] >= n {
				return x0 + a0, y0 + b0, true
			}
		}
		for k := dd; k >= -dd; k -= 2 {
			var x int
			if k == -dd || k != dd && vb[off+k-1] < vb[off+k+1] {
				x = vb[off+k+1]
			} else {
				x = vb[off+k-1] + 1
			}
			y := x - k
			if x < n && y >= 0 && y < m {
				adv := d.suffix(a0, a0+n-x, b0, b0+m-y)
				x += adv
				y += adv
				d.steps += adv
			}
			vb[off+k] = x
			if !odd && abs(k-delta) <= dd && vb[off+k]+vf[off-(k-delta)] >= n {
				return n - x + a0, m - y + b0, true
			}
		}
	}
	return 0, 0, false
}

// compact slides each deletion and then each insertion up and down over
// the equal lines beside it, merging it with neighbours of its kind, as
// similar's compaction does.
func (d *lineDiffer) compact() {
	for _, tag := range []byte{'d', 'i'} {
		for p := 0; p < len(d.ops); p++ {
			if d.ops[p].tag == tag {
				p = d.shiftUp(p)
				p = d.shiftDown(p)
			}
		}
	}
	// Cursors: a deletion's new index and an insertion's old index are
	// where the other side stands.
	if len(d.ops) == 0 {
		return
	}
	oldCur, newCur := d.ops[0].oldIdx, d.ops[0].newIdx
	for i := range d.ops {
		o := &d.ops[i]
		switch o.tag {
		case 'd':
			o.newIdx = newCur
		case 'i':
			o.oldIdx = oldCur
		}
		oldCur, newCur = o.oldEnd(), o.newEnd()
	}
}

// swap exchanges an adjacent insertion and deletion at left and left+1.
func (d *lineDiffer) swap(left int) {
	right := left + 1
	oldStart, oldEnd := d.ops[left].oldIdx, d.ops[right].oldEnd()
	newStart, newEnd := d.ops[left].newIdx, d.ops[right].newEnd()
	d.ops[left], d.ops[right] = d.ops[right], d.ops[left]
	for i, at := range []struct{ old, new int }{{oldStart, newStart}, {oldEnd, newEnd}} {
		o := &d.ops[left+i]
		if o.tag == 'i' {
			o.oldIdx = at.old
		} else {
			o.newIdx = at.new
		}
	}
}

func (d *lineDiffer) insertOp(at int, o simOp) {
	d.ops = append(d.ops[:at], append([]simOp{o}, d.ops[at:]...)...)
}

func (d *lineDiffer) removeOp(at int) { d.ops = append(d.ops[:at], d.ops[at+1:]...) }

// shiftUp slides the change at p up; it returns its new index.
func (d *lineDiffer) shiftUp(p int) int {
	for p > 0 {
		this, prev := d.ops[p], d.ops[p-1]
		switch {
		case prev.tag == 'e':
			var n int
			if this.tag == 'i' {
				n = d.suffix(prev.oldIdx, prev.oldEnd(), this.newIdx, this.newEnd())
			} else {
				if p < 2 || d.ops[p-2].tag != 'd' {
					return p
				}
				n = d.suffix(this.oldIdx, this.oldEnd(), prev.newIdx, prev.newEnd())
			}
			if n == 0 {
				if !d.ops[p-1].empty() {
					return p
				}
				d.removeOp(p - 1)
				p--
				continue
			}
			if p+1 < len(d.ops) && d.ops[p+1].tag == 'e' {
				d.ops[p+1].growLeft(n)
			} else if this.tag == 'i' {
				d.insertOp(p+1, simOp{'e', prev.oldEnd() - n, n, this.newEnd() - n, n})
			} else {
				d.insertOp(p+1, simOp{'e', this.oldEnd() - n, n, prev.newEnd() - n, n})
			}
			d.ops[p].shift(-n)
			d.ops[p-1].shrinkLeft(n)
			if d.ops[p-1].empty() {
				d.removeOp(p - 1)
				p--
			}
		case prev.tag != this.tag:
			d.swap(p - 1)
			p--
		default:
			d.ops[p-1].grow(this.oldLen + this.newLen)
			d.removeOp(p)
			p--
		}
	}
	return p
}

// shiftDown slides the change at p down; it returns its new index.
func (d *lineDiffer) shiftDown(p int) int {
	for p+1 < len(d.ops) {
		this, next := d.ops[p], d.ops[p+1]
		switch {
		case next.tag == 'e':
			var n int
			if this.tag == 'i' {
				n = d.prefix(next.oldIdx, next.oldEnd(), this.newIdx, this.newEnd())
			} else {
				if p+2 >= len(d.ops) || d.ops[p+2].tag != 'd' {
					return p
				}
				n = d.prefix(this.oldIdx, this.oldEnd(), next.newIdx, next.newEnd())
			}
			if n == 0 {
				if !d.ops[p+1].empty() {
					return p
				}
				d.removeOp(p + 1)
				continue
			}
			if p > 0 && d.ops[p-1].tag == 'e' {
				d.ops[p-1].grow(n)
			} else {
				if this.tag == 'i' {
					d.insertOp(p, simOp{'e', next.oldIdx, n, this.newIdx, n})
				} else {
					d.insertOp(p, simOp{'e', this.oldIdx, n, this.newIdx, n})
				}
				p++
			}
			d.ops[p].shift(n)
			d.ops[p+1].shrinkRight(n)
			if d.ops[p+1].empty() {
				d.removeOp(p + 1)
			}
		case next.tag != this.tag:
			d.swap(p)
			p++
		default:
			d.ops[p].grow(next.oldLen + next.newLen)
			d.removeOp(p + 1)
		}
	}
	return p
}
