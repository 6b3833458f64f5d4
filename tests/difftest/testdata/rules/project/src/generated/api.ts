console.log("generated");
process(2, "b");
