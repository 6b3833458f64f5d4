const items = [
  "a",
  "TODO",
  "b",
];
