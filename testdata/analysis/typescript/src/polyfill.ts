// "createRegistry()" in a comment and a string is not a call.
const note = "createRegistry()";
