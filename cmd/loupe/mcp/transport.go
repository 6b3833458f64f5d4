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

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxMessageBytes is the longest message line a transport reads
// (as the SDK's own stdio transport).
const DefaultMaxMessageBytes = sdk.DefaultMaxLineLength

// NewTransport returns the server's stdio transport: newline-delimited
// JSON-RPC messages read from r and written to w.
//
// It differs from the SDK's StdioTransport, whose connection ends at the
// first line it cannot decode, in three ways. A line that is not JSON is
// answered with a parse error (-32700); one that is JSON but not a
// JSON-RPC message, a batch (which MCP dropped in 2025-06-18; no client
// sends one), or a line longer than maxBytes (0:
// DefaultMaxMessageBytes) is answered with an invalid-request error
// (-32600), with the request's id when it can be read, and so is a call
// reusing the id of a call in flight (with a null id, leaving the first
// call alone); the line is then skipped and the server goes on. And the answer to a call the client
// cancelled (notifications/cancelled) is not sent, as the protocol asks,
// however late the call returns. When r ends, the server shuts down: the
// calls in flight are cancelled and answer nothing.
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
		inFlight: map[jsonrpc.ID]bool{},
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
	// inFlight holds the calls read and not answered yet, true for those
	// the client cancelled.
	inFlight map[jsonrpc.ID]bool
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
		var probe struct {
			ID any `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		var id any
		if _, err := jsonrpc.MakeID(probe.ID); err == nil {
			id = probe.ID
		}
		c.reject(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok && !c.track(req) {
		c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: id %v is already used by a call in flight", req.ID.Raw()))
		return nil
	}
	return msg
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
		c.inFlight[req.ID] = false
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
		if _, ok := c.inFlight[id]; ok {
			c.inFlight[id] = true
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

// Read implements sdk.Connection.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-c.msgs:
		return msg, nil
	case <-c.ended:
		if c.readErr != nil && !errors.Is(c.readErr, io.EOF) {
			return nil, c.readErr
		}
		return nil, io.EOF
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write implements sdk.Connection. The answer to a call the client
// cancelled is dropped.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID.IsValid() {
		c.mu.Lock()
		cancelled := c.inFlight[resp.ID]
		delete(c.inFlight, resp.ID)
		c.mu.Unlock()
		if cancelled {
			return nil
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
