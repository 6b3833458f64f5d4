<?php

namespace App\Models;

use App\Support\Collection;

class User
{
    private array $roles = [];

    public function __construct(private string $name, private string $email)
    {
    }

    public function getName(): string
    {
        return $this->name;
    }

    public function addRole(string $role): self
    {
        if (!in_array($role, $this->roles, true)) {
            $this->roles[] = $role;
        }
        return $this;
    }

    public function hasRole(string $role): bool
    {
        return in_array($role, $this->roles, true);
    }

    public static function fromArray(array $data): static
    {
        $user = new static($data['name'], $data['email']);
        foreach ($data['roles'] ?? [] as $role) {
            $user->addRole($role);
        }
        return $user;
    }
}

function greet(User $user): string
{
    return "Hello, " . $user->getName();
}

$u = User::fromArray(['name' => 'ann', 'email' => 'a@example.com', 'roles' => ['admin']]);
echo greet($u);
if ($u->hasRole('admin')) {
    echo "admin\n";
} else {
    echo "user\n";
}
$count = count([1, 2, 3]);
$same = $count === $count;
