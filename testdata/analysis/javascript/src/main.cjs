const { Service } = require('./service.js');
const legacy = require('./registry');

function main() {
  const s = new Service();
  s.init('a');
  ping(3);
  s.builder().with('x').build();
}
const ping = (n) => {
  if (n > 0) pong(n - 1);
};
// ping(n) in a comment is not a call
const pong = function (n) {
  ping(n);
};
module.exports = { main, ping };
module.exports.extra = 1;
exports.other = () => import('./util/index.mjs');
main();
