// A small notes app model, to exercise the Swift grammar.
import Foundation

let greeting = "Grüße — こんにちは — 📝"

protocol Identifiable {
    associatedtype ID: Hashable
    var id: ID { get }
}

enum Priority: Int, CaseIterable, Comparable {
    case low = 0, normal, high

    static func < (lhs: Priority, rhs: Priority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    var label: String {
        switch self {
        case .low: return "niedrig"
        case .normal: return "normal"
        case .high: return "hoch"
        }
    }
}

enum NoteError: Error {
    case notFound(UUID)
    case tooLong(limit: Int)
}

struct Note: Identifiable, Codable, Equatable {
    let id: UUID
    var title: String
    var body: String
    var tags: Set<String> = []
    var pinned = false

    init(title: String, body: String = "") {
        self.id = UUID()
        self.title = title
        self.body = body
    }

    mutating func tag(_ names: String...) {
        for name in names where !name.isEmpty {
            tags.insert(name.lowercased())
        }
    }
}

final class NoteStore {
    private(set) var notes: [UUID: Note] = [:]
    private let maxLength: Int
    var onChange: ((Note) -> Void)?

    init(maxLength: Int = 1_000) {
        self.maxLength = maxLength
    }

    @discardableResult
    func add(_ note: Note) throws -> Note {
        guard note.body.count <= maxLength else {
            throw NoteError.tooLong(limit: maxLength)
        }
        notes[note.id] = note
        onChange?(note)
        return note
    }

    func update(_ id: UUID, _ change: (inout Note) -> Void) throws {
        guard var note = notes[id] else { throw NoteError.notFound(id) }
        change(&note)
        notes[id] = note
        onChange?(note)
    }

    func search(_ query: String) -> [Note] {
        notes.values
            .filter { $0.title.localizedCaseInsensitiveContains(query) || $0.tags.contains(query) }
            .sorted { ($0.pinned ? 0 : 1, $0.title) < ($1.pinned ? 0 : 1, $1.title) }
    }

    subscript(id: UUID) -> Note? {
        notes[id]
    }
}

extension NoteStore {
    var count: Int { notes.count }

    func export() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(Array(notes.values))
    }
}

func loadRemote(from url: URL) async throws -> [Note] {
    let (data, response) = try await URLSession.shared.data(from: url)
    if let http = response as? HTTPURLResponse, http.statusCode != 200 {
        return []
    }
    return try JSONDecoder().decode([Note].self, from: data)
}

let store = NoteStore(maxLength: 200)
store.onChange = { note in print("changed: \(note.title)") }
do {
    let first = try store.add(Note(title: "Einkaufen", body: "Brot, Käse, Äpfel"))
    try store.update(first.id) { note in
        note.pinned = true
        note.tag("haushalt", "")
    }
    try store.add(Note(title: "日本語のメモ"))
    _ = try store.add(Note(title: "Zu lang", body: String(repeating: "x", count: 500)))
} catch NoteError.tooLong(let limit) {
    print("too long, limit \(limit)")
} catch {
    print("unexpected: \(error)")
}

let results = store.search("haushalt").map(\.title)
let sorted = Priority.allCases.sorted(by: >).map { $0.label }
let multiline = """
    \(greeting)
    \(results.joined(separator: ", ")) \(sorted)
    """
print(multiline, store.count, 0x1F, 1.5e3)
if let data = try? store.export(), let text = String(data: data, encoding: .utf8) {
    print(text.prefix(80))
}
