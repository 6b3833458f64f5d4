class Broken {
  void f(int x {
    var y = x + ;
  }
  String g() => 'a'
}
