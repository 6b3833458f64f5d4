// A to-do list model, to exercise the Dart grammar.
import 'dart:async';
import 'dart:convert' show jsonDecode, jsonEncode;
import 'dart:math' as math;

const greeting = 'Grüße — こんにちは — ✅';

enum Priority { low, normal, high }

abstract class Identifiable {
  String get id;
}

mixin Timestamped {
  final DateTime created = DateTime.now();
  Duration get age => DateTime.now().difference(created);
}

class Todo with Timestamped implements Identifiable {
  @override
  final String id;
  final String title;
  bool done;
  Priority priority;

  Todo(this.id, this.title, {this.done = false, this.priority = Priority.normal});

  factory Todo.fromJson(Map<String, dynamic> json) {
    return Todo(
      json['id'] as String,
      json['title'] as String,
      done: json['done'] as bool? ?? false,
    );
  }

  Map<String, dynamic> toJson() => {'id': id, 'title': title, 'done': done};

  @override
  String toString() => '${done ? "[x]" : "[ ]"} $title (${priority.name})';
}

class TodoList extends Iterable<Todo> {
  final _items = <Todo>[];
  final _changes = StreamController<Todo>.broadcast();

  Stream<Todo> get changes => _changes.stream;

  @override
  Iterator<Todo> get iterator => _items.iterator;

  void add(Todo todo) {
    _items.add(todo);
    _changes.add(todo);
  }

  Todo? find(String id) {
    for (final t in _items) {
      if (t.id == id) return t;
    }
    return null;
  }

  void toggle(String id) {
    final todo = find(id);
    if (todo == null) {
      throw ArgumentError.value(id, 'id', 'no such todo');
    }
    todo.done = !todo.done;
    _changes.add(todo);
  }

  List<Todo> byPriority() =>
      [..._items]..sort((a, b) => b.priority.index.compareTo(a.priority.index));

  Future<void> close() => _changes.close();
}

extension Summary on Iterable<Todo> {
  int get open => where((t) => !t.done).length;
}

Future<List<Todo>> loadTodos(String source) async {
  await Future<void>.delayed(const Duration(milliseconds: 5));
  final decoded = jsonDecode(source) as List<dynamic>;
  return decoded.cast<Map<String, dynamic>>().map(Todo.fromJson).toList();
}

Stream<int> countdown(int from) async* {
  for (var i = from; i >= 0; i--) {
    yield i;
  }
}

Future<void> main(List<String> args) async {
  final list = TodoList();
  final sub = list.changes.listen((t) => print('changed: $t'));
  for (final t in await loadTodos('[{"id": "1", "title": "Brötchen kaufen"}]')) {
    list.add(t);
  }
  list.add(Todo('2', 'Dart lernen', priority: Priority.high));
  list.toggle('1');
  try {
    list.toggle('99');
  } on ArgumentError catch (e) {
    print('error: ${e.message}');
  } finally {
    await sub.cancel();
  }
  final r = math.Random(42).nextInt(10);
  await for (final n in countdown(2)) {
    print('$n...');
  }
  final encoded = jsonEncode(list.map((t) => t.toJson()).toList());
  print('$greeting ${list.open} open, random $r, ${encoded.length} bytes');
  print(list.byPriority().join('\n'));
  await list.close();
}
