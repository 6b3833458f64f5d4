package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// MaxMessageBytes is the longest message body (its Content-Length) the
// server reads: a longer one is skipped unread and answered with an
// Invalid Request error whose id is null (the id is in the unread body).
const MaxMessageBytes = 64 << 20

// maxHeaderLine bounds one header line; a longer one is not a header.
const maxHeaderLine = 4 << 10

// contentLength is the header that frames a message, matched without
// regard to case (header names are case-insensitive).
const contentLength = "content-length:"

// stream is the server's side of the base protocol: messages framed by
// a Content-Length header. Unlike jsonrpc2's VSCodeObjectCodec, whose
// connection ends at the first message it cannot read, it answers a
// request it cannot take with an error and keeps serving, and drops a
// bad notification: a header block without a valid Content-Length is
// skipped up to the next Content-Length header; a body over
// MaxMessageBytes, one that is not JSON, not an object, or not a
// JSON-RPC message (a method or params of the wrong type) is skipped.
// Only the end of the input, or a body cut short by it, ends the
// session.
type stream struct {
	r *bufio.Reader
	c io.Closer

	mu sync.Mutex // one message at a time on w
	w  io.Writer
}

// newStream returns the stream of rw.
func newStream(rw io.ReadWriteCloser) *stream {
	return &stream{r: bufio.NewReaderSize(rw, 64<<10), w: rw, c: rw}
}

// WriteObject implements jsonrpc2.ObjectStream.
func (s *stream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("lsp: encoding a message: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := fmt.Fprintf(s.w, "Content-Length: %d\r\n\r\n%s", len(data), data); err != nil {
		return fmt.Errorf("lsp: writing a message: %w", err)
	}
	return nil
}

// Close implements jsonrpc2.ObjectStream.
func (s *stream) Close() error { return s.c.Close() }

// ReadObject implements jsonrpc2.ObjectStream: it reads the next message
// it can take into v, answering or dropping those it cannot.
func (s *stream) ReadObject(v any) error {
	for {
		n, err := s.header()
		if err != nil {
			return err
		}
		if n > MaxMessageBytes {
			if _, err := io.CopyN(io.Discard, s.r, n); err != nil {
				return fmt.Errorf("lsp: a message body cut short: %w", err)
			}
			s.refuse(nil, codeInvalidRequest, fmt.Sprintf("message of %d bytes is longer than the limit (%d bytes); skipped", n, MaxMessageBytes))
			continue
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(s.r, body); err != nil {
			return fmt.Errorf("lsp: a message body cut short: %w", err)
		}
		if s.take(body, v) {
			return nil
		}
	}
}

// JSON-RPC's error codes for messages the stream refuses.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// take decodes body into v, or answers (or drops) it and reports false.
func (s *stream) take(body []byte, v any) bool {
	body = bytes.TrimSpace(body)
	switch {
	case !json.Valid(body):
		s.refuse(nil, codeParseError, "parse error: the message body is not JSON")
		return false
	case len(body) == 0 || body[0] != '{':
		s.refuse(nil, codeInvalidRequest, "invalid request: a message is a JSON object")
		return false
	}
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	// The body is a JSON object, so this reads it.
	_ = json.Unmarshal(body, &probe)
	var problem string
	switch {
	case probe.Method != nil && !isString(probe.Method):
		problem = "method is not a string"
	case probe.Params != nil && !isStructured(probe.Params):
		problem = "params is neither an object nor an array"
	default:
		if err := json.Unmarshal(body, v); err != nil {
			problem = strings.TrimPrefix(err.Error(), "jsonrpc2: ")
		}
	}
	if problem == "" {
		return true
	}
	if id := validID(probe.ID); id != nil {
		s.refuse(id, codeInvalidRequest, "invalid request: "+problem)
	}
	// Without an id it is a notification, or an answer the server cannot
	// match: either way nobody waits for a reply.
	return false
}

// header reads a header block and returns its Content-Length. A block
// without a valid one is skipped; so are bytes outside any frame (a body
// sent without a header), up to the next line holding a Content-Length
// header, where a frame starts again.
func (s *stream) header() (int64, error) {
	n := int64(-1)
	bad := false // the block has a line that is no header, or a bad length
	for lines := 0; ; lines++ {
		line, err := s.line()
		if err != nil {
			if lines == 0 && errors.Is(err, io.EOF) {
				return 0, io.EOF
			}
			return 0, fmt.Errorf("lsp: reading a message header: %w", err)
		}
		if line == "" {
			if !bad && n >= 0 {
				return n, nil
			}
			if lines > 0 {
				s.refuse(nil, codeInvalidRequest, "invalid request: a message header without a valid Content-Length; skipped")
			}
			n, bad, lines = -1, false, -1
			continue
		}
		i := strings.Index(strings.ToLower(line), contentLength)
		if i < 0 {
			bad = bad || !isHeader(line)
			continue
		}
		if i > 0 || bad || n >= 0 {
			// A frame starts here, after bytes outside any frame.
			s.refuse(nil, codeParseError, "parse error: bytes outside a message; skipped")
			n, bad = -1, false
		}
		v, err := strconv.ParseInt(strings.TrimSpace(line[i+len(contentLength):]), 10, 64)
		if err != nil || v < 0 {
			bad = true
			continue
		}
		n = v
	}
}

// isHeader reports whether line has the form of a header, name: value.
func isHeader(line string) bool {
	name, _, ok := strings.Cut(line, ":")
	return ok && name != "" && !strings.ContainsAny(name, " \t{}[]\"")
}

// line reads one header line without its line ending (\r\n, or a bare
// \n); a line over maxHeaderLine is cut there, the rest read as another.
func (s *stream) line() (string, error) {
	var b []byte
	for len(b) < maxHeaderLine {
		c, err := s.r.ReadByte()
		if err != nil {
			if len(b) > 0 && errors.Is(err, io.EOF) {
				return "", io.ErrUnexpectedEOF
			}
			return "", err
		}
		if c == '\n' {
			return strings.TrimSuffix(string(b), "\r"), nil
		}
		b = append(b, c)
	}
	return string(b), nil
}

// refuse answers a message the server cannot take, with id (null when
// nil).
func (s *stream) refuse(id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	// A broken output ends the session at the server's next write.
	_ = s.WriteObject(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   any             `json:"error"`
	}{"2.0", id, map[string]any{"code": code, "message": msg}})
}

// validID returns raw when it is a JSON-RPC id (a string or a number).
func validID(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if isString(raw) || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' {
		return raw
	}
	return nil
}

func isString(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"'
}

func isStructured(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '{' || raw[0] == '[' || string(raw) == "null")
}
