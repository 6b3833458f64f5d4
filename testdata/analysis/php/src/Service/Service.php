<?php
namespace App\Service;

use App\Registry\ToolRegistry;
use App\Util\{Log, Other as Extra};

require_once __DIR__ . '/../Util/helpers.php';

function createRegistry(): ToolRegistry
{
    return new ToolRegistry();
}

class Service
{
    private ?ToolRegistry $toolRegistry = null;

    public function init(string $tool): void
    {
        $this->toolRegistry = createRegistry();
        $this->toolRegistry->register($tool);
        Log::log('ready');
    }

    public function reset(): void
    {
        $again = fn() => createRegistry();
        $again();
    }
}
