package api

import "net/http"

// Server serves the shop's API.
type Server struct{ addr string }

// NewServer returns a server listening on addr.
func NewServer(addr string) *Server { return &Server{addr: addr} }

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {}
