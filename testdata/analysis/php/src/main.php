<?php
use App\Service\Service;

require 'Service/Service.php';

function main(): void
{
    $s = new Service();
    $s->init('a');
    ping(3);
    $s->builder()->with('x')->build();
}

function ping(int $n): void
{
    if ($n > 0) {
        pong($n - 1);
    }
}

// ping($n) in a comment is not a call
function pong(int $n): void
{
    ping($n);
}

main();
