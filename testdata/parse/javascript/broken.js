function broken( {
  const x = [1, 2, 3;
  return x.map(y => y * );
}

let = 5;
class { }
