<?php
namespace App\Registry;

interface Named
{
    public function name(): string;
}

interface Registry extends Named
{
    public function register(string $tool): void;
}

abstract class BaseRegistry
{
    protected array $items = [];
}

class ToolRegistry extends BaseRegistry implements Registry
{
    public function register(string $tool): void
    {
        $this->items[] = $tool;
    }

    public function name(): string
    {
        return 'tools';
    }

    private function count(): int
    {
        return count($this->items);
    }
}

final class SpecialRegistry extends ToolRegistry
{
}
