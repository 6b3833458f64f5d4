const Button = styled.css`
  color: red;
  .icon { fill: red; }
`;
const Card = css`.card { border: 1px solid red }`;
const Other = styled.nosuch`color: red;`;
console.log(Button, Card, Other);
