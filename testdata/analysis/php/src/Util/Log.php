<?php
namespace App\Util;

class Log
{
    public static function log(string $msg): void
    {
        echo $msg;
    }
}
