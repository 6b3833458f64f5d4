export function Broken() {
  return (
    <div>
      <span>unclosed
    </div>
  );
}

const x = <Foo bar={} />;
