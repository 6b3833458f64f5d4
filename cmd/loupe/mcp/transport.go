package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxMessageBytes is the longest message line a transport reads
// (as the SDK's own stdio transport).
const DefaultMaxMessageBytes = sdk.DefaultMaxLineLength

// MaxNesting is how deeply a message's JSON may nest: as deeply as the
// SDK decodes (deeper, it refuses the message without its id).
const MaxNesting = 1000

// CodeRequestCancelled is the error code of the answer to a call
// cancelled before it ran because the input ended. MCP defines no code
// for a cancelled request (its cancelled calls are not answered at all);
// this is LSP's RequestCancelled, outside JSON-RPC's reserved range.
const CodeRequestCancelled = -32800

// DrainTimeout bounds the wait for the answers of the requests in flight
// when the input ends: a call that has not answered by then (its tool
// ignoring the cancellation) is not waited for.
const DrainTimeout = 10 * time.Second

// NewTransport returns the server's stdio transport: newline-delimited
// JSON-RPC messages read from r and written to w.
//
// It differs from the SDK's StdioTransport, whose connection ends at the
// first line it cannot decode, in these ways. A line that is not JSON is
// answered with a parse error (-32700); one that is JSON but not a
// JSON-RPC message, a batch (which MCP dropped in 2025-06-18; no client
// sends one), a line longer than maxBytes (0: DefaultMaxMessageBytes) or
// one nesting deeper than MaxNesting levels is answered with an
// invalid-request error (-32600), with the request's id when it can be
// read, and so is a call reusing the id of a call in flight (with a null
// id, leaving the first call alone); the line is then skipped and the
// server goes on. A call before initialize is refused with -32600 too
// (the SDK's refusal has no code). The answer to a call the client
// cancelled (notifications/cancelled) is not sent, as the protocol asks,
// however late the call returns. When r ends, the tool calls in flight
// are cancelled, and the server exits once every request it read is
// answered (a cancelled tool call's answer says so), or after
// DrainTimeout.
func NewTransport(r io.Reader, w io.Writer, maxBytes int) sdk.Transport {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxMessageBytes
	}
	return &transport{r: r, w: w, max: maxBytes}
}

type transport struct {
	r   io.Reader
	w   io.Writer
	max int
}

// Connect implements sdk.Transport; a transport connects once.
func (t *transport) Connect(context.Context) (sdk.Connection, error) {
	c := &conn{
		r:        t.r,
		w:        t.w,
		msgs:     make(chan jsonrpc.Message),
		ended:    make(chan struct{}),
		closed:   make(chan struct{}),
		inFlight: map[jsonrpc.ID]*call{},
		answered: make(chan struct{}, 1),
	}
	go c.readLoop(t.max)
	return c, nil
}

// conn is one session's connection.
type conn struct {
	r io.Reader
	w io.Writer

	msgs    chan jsonrpc.Message // decoded messages, to Read
	ended   chan struct{}        // closed when the reader ends, with readErr
	readErr error

	closeOnce sync.Once
	closed    chan struct{}

	writeMu sync.Mutex // one line at a time on w

	mu sync.Mutex
	// inFlight holds the calls read and not answered yet.
	inFlight map[jsonrpc.ID]*call
	// answered is signalled when a call in flight is answered.
	answered chan struct{}
	// initialized is set once an initialize call is answered with a
	// result.
	initialized bool
	// draining is set when the input has ended and the tool calls then
	// in flight were listed in hangup, to be cancelled.
	draining bool
	hangup   []jsonrpc.ID
	// drainEnd is when the wait for the answers ends.
	drainEnd time.Time
}

// call is a request read and not answered yet.
type call struct {
	method string
	// cancelled: the client cancelled it, and its answer is not sent.
	cancelled bool
	// hungUp: it was cancelled when the input ended.
	hungUp bool
}

// readLoop reads lines until r ends, answering the bad ones itself and
// passing the others to Read.
func (c *conn) readLoop(max int) {
	defer close(c.ended)
	br := bufio.NewReaderSize(c.r, 64<<10)
	for {
		line, n, err := readLine(br, max)
		if n > max {
			c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message of over %d bytes is longer than the limit (%d bytes); skipped", max, max))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			if msg := c.decode(line); msg != nil {
				select {
				case c.msgs <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			c.readErr = err
			return
		}
	}
}

// readLine reads one line of at most max bytes, returning it without its
// newline; n is its length, and when n exceeds max, the line is not
// returned (its bytes are read and dropped).
func readLine(br *bufio.Reader, max int) (line []byte, n int, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if n <= max+1 { // the newline does not count
			line = append(line, chunk...)
		} else {
			line = nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(line) > 0 && line[len(line)-1] == '\n' {
			n--
		}
		return line, n, err
	}
}

// decode returns the message on line, or nil after answering a bad line.
func (c *conn) decode(line []byte) jsonrpc.Message {
	if depth(line) > MaxNesting {
		// json.Valid itself refuses JSON nested beyond 10,000 levels:
		// the id is read without decoding the rest.
		if id, ok := findID(line); ok {
			c.reject(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the message nests more than %d levels deep (the limit); skipped", MaxNesting))
			return nil
		}
	}
	if !json.Valid(line) {
		c.reject(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON")
		return nil
	}
	if line[0] == '[' {
		c.reject(nil, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported: send one message per line")
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		id, _ := findID(line)
		c.reject(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok && !c.track(req) {
		c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: id %v is already used by a call in flight", req.ID.Raw()))
		return nil
	}
	return msg
}

// depth is how deeply line's arrays and objects nest, counted outside
// strings (line need not be valid JSON).
func depth(line []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range line {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			d++
			deepest = max(deepest, d)
		case b == '}' || b == ']':
			d--
		}
	}
	return deepest
}

// findID returns the id of the message on line when line is one valid
// JSON object with a valid JSON-RPC id (a string or a number), reading
// it token by token: no depth limit applies, and nothing is decoded
// beyond the top level's keys and the id.
func findID(line []byte) (id any, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	found := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, false
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		switch tok.(type) {
		case json.Delim: // an object or array: read to its end
			for level := 1; level > 0; {
				t, err := dec.Token()
				if err != nil {
					return nil, false
				}
				switch t {
				case json.Delim('{'), json.Delim('['):
					level++
				case json.Delim('}'), json.Delim(']'):
					level--
				}
			}
		case string, json.Number:
			if key == "id" {
				id, found = tok, true
			}
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	if n, isNum := id.(json.Number); isNum {
		f, err := n.Float64()
		if err != nil {
			return nil, false
		}
		if _, err := jsonrpc.MakeID(f); err != nil {
			return nil, false
		}
	}
	return id, found
}

// track records a call in flight, and a cancellation of one. It reports
// false for a call reusing the id of one in flight, which is not passed
// on (the SDK would drop it unanswered): it is answered with an error
// whose id is null, so that the client cannot take it for the first
// call's answer, and the first call is not touched.
func (c *conn) track(req *jsonrpc.Request) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if req.IsCall() {
		if _, dup := c.inFlight[req.ID]; dup {
			return false
		}
		c.inFlight[req.ID] = &call{method: req.Method}
		return true
	}
	if req.Method != "notifications/cancelled" {
		return true
	}
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) != nil {
		return true
	}
	if id, err := jsonrpc.MakeID(p.RequestID); err == nil && id.IsValid() {
		if cl := c.inFlight[id]; cl != nil {
			cl.cancelled = true
		}
	}
	return true
}

// reject answers a line that never reaches the server, with id when the
// line has a valid one and null otherwise (the SDK's encoder would leave
// an invalid id out, which JSON-RPC does not allow).
func (c *conn) reject(id any, code int64, msg string) {
	line, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		return
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, _ = c.w.Write(append(line, '\n')) // a broken output ends the session at the server's next write
}

// Read implements sdk.Connection. When the input has ended, it first
// cancels the tool calls in flight, as the client would (one
// notifications/cancelled each, whose answers are still sent), then waits
// until every call read is answered (at most DrainTimeout) before it
// reports the end: the SDK answers nothing once its reader has ended.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-c.msgs:
		return msg, nil
	case <-c.ended:
		return c.drain(ctx)
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// hangupReason is the reason of the cancellations sent when the input
// ends.
const hangupReason = "the client closed the server's input"

// drain is Read once the input has ended.
func (c *conn) drain(ctx context.Context) (jsonrpc.Message, error) {
	c.mu.Lock()
	if !c.draining {
		c.draining = true
		c.drainEnd = time.Now().Add(DrainTimeout)
		for id, cl := range c.inFlight {
			if cl.method == "tools/call" && !cl.cancelled {
				cl.hungUp = true
				c.hangup = append(c.hangup, id)
			}
		}
	}
	if n := len(c.hangup); n > 0 {
		id := c.hangup[n-1]
		c.hangup = c.hangup[:n-1]
		c.mu.Unlock()
		params, err := json.Marshal(map[string]any{"requestId": id.Raw(), "reason": hangupReason})
		if err != nil {
			return nil, fmt.Errorf("mcp: cancelling call %v: %w", id.Raw(), err)
		}
		return &jsonrpc.Request{Method: "notifications/cancelled", Params: params}, nil
	}
	c.mu.Unlock()
	timer := time.NewTimer(time.Until(c.drainEnd))
	defer timer.Stop()
	for {
		c.mu.Lock()
		left := len(c.inFlight)
		c.mu.Unlock()
		if left == 0 {
			break
		}
		select {
		case <-c.answered:
		case <-timer.C:
			return nil, c.endErr()
		case <-c.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, c.endErr()
}

// endErr is the error that ended the input: io.EOF for its end.
func (c *conn) endErr() error {
	if c.readErr != nil && !errors.Is(c.readErr, io.EOF) {
		return c.readErr
	}
	return io.EOF
}

// Write implements sdk.Connection. The answer to a call the client
// cancelled is dropped; the SDK's refusal of a call before initialize,
// which has no error code, gets Invalid Request's.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID.IsValid() {
		c.mu.Lock()
		cl := c.inFlight[resp.ID]
		delete(c.inFlight, resp.ID)
		if cl != nil && cl.method == "initialize" && resp.Error == nil {
			c.initialized = true
		}
		early := !c.initialized && cl != nil && cl.method != "initialize"
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
		if cl != nil && cl.cancelled {
			return nil
		}
		switch {
		case resp.Error == nil || wireCode(resp.Error) != 0:
		case cl != nil && cl.hungUp:
			// Cancelled before it ran: the SDK's error is the context's,
			// with no code.
			msg = &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{
				Code:    CodeRequestCancelled,
				Message: "cancelled: " + hangupReason + " before the call finished",
			}}
		case early:
			// The MCP specification names no code for a request before
			// initialization (its lifecycle only says the client SHOULD
			// NOT send one; its schema's codes are JSON-RPC's own, and
			// -32002 is resources' "Resource not found"). go-sdk v1.8.0
			// refuses it with a plain error, which goes out with code 0,
			// not a JSON-RPC code; python-sdk's fix for the same case
			// (modelcontextprotocol/python-sdk#2411) answers
			// INVALID_REQUEST, the JSON-RPC code for a request that is
			// not acceptable as sent, which is used here.
			msg = &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{
				Code:    jsonrpc.CodeInvalidRequest,
				Message: resp.Error.Error() + ": send initialize first",
			}}
		}
	}
	select {
	case <-c.closed:
		return errors.New("mcp: write on a closed connection")
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	return c.write(msg)
}

// wireCode is the JSON-RPC code an error goes out with (0 when it has
// none).
func wireCode(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return 0
}

func (c *conn) write(msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("mcp: encoding a message: %w", err)
	}
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.w.Write(data)
	return err
}

// Close implements sdk.Connection: it stops reading (closing r when it can
// be closed, which unblocks a read in progress).
func (c *conn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		if rc, ok := c.r.(io.Closer); ok {
			err = rc.Close()
		}
	})
	return err
}

// SessionID implements sdk.Connection: stdio has no session id.
func (c *conn) SessionID() string { return "" }
