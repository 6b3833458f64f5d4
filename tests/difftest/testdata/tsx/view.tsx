import React, { useState, useEffect } from 'react';
import type { Props } from './types';

interface ButtonProps {
  label: string;
  onClick?: () => void;
  disabled: boolean;
}

export function Button({ label, onClick, disabled }: ButtonProps) {
  return (
    <button className="btn" onClick={onClick} disabled={disabled}>
      {label}
    </button>
  );
}

export const Counter = (props: Props) => {
  const [count, setCount] = useState<number>(0);
  useEffect(() => {
    document.title = `count ${count}`;
  }, [count]);
  useEffect(() => {
    console.log('mounted');
  }, []);
  return (
    <div>
      <Button label="+" onClick={() => setCount(count + 1)} disabled={false} />
      <Button label="-" onClick={() => setCount(count - 1)} disabled={count <= 0} />
      <span>{count}</span>
    </div>
  );
};

export default function App(): JSX.Element {
  const items: string[] = ['a', 'b'];
  return <ul>{items.map((item) => <li key={item}>{item}</li>)}</ul>;
}

function Empty() {
  return <></>;
}

const x = useState(1);
const y = useState<string>('s');
