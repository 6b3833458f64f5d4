// A React component tree to exercise the TSX grammar.
import React, { useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";

export interface ListProps<T> {
  items: readonly T[];
  render: (item: T, index: number) => ReactNode;
  empty?: ReactNode;
}

export function List<T,>({ items, render, empty = <em>nothing here</em> }: ListProps<T>) {
  if (items.length === 0) {
    return <p className="empty">{empty}</p>;
  }
  return (
    <ul>
      {items.map((item, i) => (
        <li key={i} data-index={i}>
          {render(item, i)}
        </li>
      ))}
    </ul>
  );
}

type User = { id: number; name: string; email?: string };

const greeting = "Grüß Gott — 你好 — こんにちは";

function useUsers(url: string): [User[], boolean] {
  const [users, setUsers] = useState<User[]>([]);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let cancelled = false;
    fetch(url)
      .then((r) => r.json() as Promise<User[]>)
      .then((data) => {
        if (!cancelled) setUsers(data);
      })
      .finally(() => setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [url]);
  return [users, loading];
}

export const UserCard: React.FC<{ user: User; onSelect?: (id: number) => void }> = ({ user, onSelect }) => {
  const initials = useMemo(
    () =>
      user.name
        .split(" ")
        .map((part) => part[0])
        .join(""),
    [user.name],
  );
  return (
    <div className="card" onClick={() => onSelect?.(user.id)} aria-label={`user ${user.name}`}>
      <span className="avatar">{initials}</span>
      <>
        <strong>{user.name}</strong>
        {user.email ? <a href={"mailto:" + user.email}>{user.email}</a> : null}
      </>
    </div>
  );
};

export default function App(): JSX.Element {
  const [users, loading] = useUsers("/api/users");
  const [selected, setSelected] = useState<number | null>(null);
  // A comment inside a function body.
  return (
    <main>
      <h1 title={greeting}>Benutzer ({users.length})</h1>
      {loading && <Spinner size={24} />}
      <List items={users} render={(u) => <UserCard user={u} onSelect={setSelected} />} />
      {selected !== null ? <p>Ausgewählt: {selected}</p> : <p>Keine Auswahl</p>}
    </main>
  );
}

function Spinner({ size }: { size: number }) {
  return <svg width={size} height={size} viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" /></svg>;
}
