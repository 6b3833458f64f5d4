var count = 1;
console.log(count);
