console.log('plain');
