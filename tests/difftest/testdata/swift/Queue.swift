import Foundation

protocol Container {
    associatedtype Item
    var count: Int { get }
    mutating func append(_ item: Item)
}

struct Queue<T>: Container {
    private var items: [T] = []

    var count: Int { return items.count }

    mutating func append(_ item: T) {
        items.append(item)
    }

    mutating func pop() -> T? {
        if items.isEmpty {
            return nil
        }
        return items.removeFirst()
    }
}

class Logger {
    let prefix: String

    init(prefix: String) {
        self.prefix = prefix
    }

    func log(_ message: String) {
        print("\(prefix): \(message)")
    }
}

enum Level: Int {
    case debug = 0
    case info
    case error
}

func largest(_ xs: [Int]) -> Int? {
    guard var best = xs.first else {
        return nil
    }
    for x in xs where x > best {
        best = x
    }
    return best
}

var q = Queue<Int>()
q.append(1)
q.append(2)
let logger = Logger(prefix: "main")
logger.log("count \(q.count)")
if let first = q.pop() {
    print(first)
} else {
    print("empty")
}
let doubled = [1, 2, 3].map { $0 * 2 }
print(largest(doubled) ?? 0)
