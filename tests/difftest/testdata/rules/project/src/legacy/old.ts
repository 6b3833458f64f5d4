console.log("legacy");
for (const y of ys) {
  console.log(y);
}
