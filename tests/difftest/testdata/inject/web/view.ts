const view = html(`<p onclick="go()">hi</p>`);
console.log(view);
