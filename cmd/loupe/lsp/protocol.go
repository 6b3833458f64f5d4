package lsp

import "encoding/json"

// The Language Server Protocol messages the server reads and writes, as
// far as it uses them (LSP 3.17). Fields it does not use are left out:
// encoding/json skips them when reading.

// Position is a zero-based line and a column in UTF-16 code units, the
// protocol's default position encoding.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// before reports whether p comes before q.
func (p Position) before(q Position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
}

// Range is a span of a document, end exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// less orders ranges by start, then end.
func (r Range) less(s Range) bool {
	if r.Start != s.Start {
		return r.Start.before(s.Start)
	}
	return r.End.before(s.End)
}

// Location is a range of a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// Diagnostic is one finding of a rule, as published.
type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           int                            `json:"severity,omitempty"`
	Code               any                            `json:"code,omitempty"`
	CodeDescription    *CodeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source,omitempty"`
	Message            string                         `json:"message"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

// CodeDescription links a diagnostic's code to its documentation.
type CodeDescription struct {
	Href string `json:"href"`
}

// DiagnosticRelatedInformation is a labelled place a diagnostic refers to.
type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// Diagnostic severities.
const (
	severityError       = 1
	severityWarning     = 2
	severityInformation = 3
	severityHint        = 4
)

// PublishDiagnosticsParams is the textDocument/publishDiagnostics
// notification.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// TextDocumentItem is an opened document.
type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

// DidOpenTextDocumentParams is the textDocument/didOpen notification.
type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// DidChangeTextDocumentParams is the textDocument/didChange notification;
// with full synchronisation each change is the whole new text.
type DidChangeTextDocumentParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int    `json:"version"`
	} `json:"textDocument"`
	ContentChanges []struct {
		Text string `json:"text"`
	} `json:"contentChanges"`
}

// DidCloseTextDocumentParams is the textDocument/didClose notification.
type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// InitializeParams is the part of the initialize request the server
// reads: the client's capabilities and its workspace folders.
type InitializeParams struct {
	WorkspaceFolders []WorkspaceFolder `json:"workspaceFolders"`
	Capabilities     struct {
		Workspace struct {
			WorkspaceFolders bool `json:"workspaceFolders"`
		} `json:"workspace"`
		TextDocument struct {
			CodeAction *struct {
				CodeActionLiteralSupport json.RawMessage `json:"codeActionLiteralSupport"`
			} `json:"codeAction"`
		} `json:"textDocument"`
	} `json:"capabilities"`
}

// WorkspaceFolder is a folder open in the editor.
type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// InitializeResult answers initialize.
type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   ServerInfo         `json:"serverInfo"`
}

// ServerInfo names the server.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// ServerCapabilities are what the server offers.
type ServerCapabilities struct {
	// TextDocumentSync is 1: full documents on every change.
	TextDocumentSync int `json:"textDocumentSync"`
	// CodeActionProvider is true, or CodeActionOptions for a client that
	// understands code action literals.
	CodeActionProvider     any                   `json:"codeActionProvider"`
	ExecuteCommandProvider ExecuteCommandOptions `json:"executeCommandProvider"`
	HoverProvider          bool                  `json:"hoverProvider"`
}

// CodeActionOptions are the code action kinds the server offers.
type CodeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds"`
	ResolveProvider bool     `json:"resolveProvider"`
}

// ExecuteCommandOptions are the commands the server runs.
type ExecuteCommandOptions struct {
	Commands []string `json:"commands"`
}

// CodeActionParams is the textDocument/codeAction request.
type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      struct {
		Diagnostics []Diagnostic `json:"diagnostics"`
		Only        []string     `json:"only"`
	} `json:"context"`
}

// CodeAction is a quick fix or the fix-all source action.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind,omitempty"`
	IsPreferred *bool          `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

// WorkspaceEdit is edits by document URI.
type WorkspaceEdit struct {
	Changes map[string][]TextEdit `json:"changes"`
}

// TextEdit replaces a range with new text.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// HoverParams is the textDocument/hover request.
type HoverParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// Hover is a rule's note shown over its diagnostic.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// MarkupContent is markdown or plain text.
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// ExecuteCommandParams is the workspace/executeCommand request.
type ExecuteCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

// ApplyWorkspaceEditParams is the workspace/applyEdit request to the
// client.
type ApplyWorkspaceEditParams struct {
	Edit WorkspaceEdit `json:"edit"`
}

// RegistrationParams is the client/registerCapability request.
type RegistrationParams struct {
	Registrations []Registration `json:"registrations"`
}

// Registration registers one capability dynamically.
type Registration struct {
	ID              string `json:"id"`
	Method          string `json:"method"`
	RegisterOptions any    `json:"registerOptions,omitempty"`
}

// FileSystemWatcher asks the client to report changes to files matching
// a glob.
type FileSystemWatcher struct {
	GlobPattern string `json:"globPattern"`
	Kind        int    `json:"kind"`
}

// MessageParams is a window/showMessage or window/logMessage
// notification.
type MessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// Message types.
const (
	messageError = 1
	messageInfo  = 3
)
