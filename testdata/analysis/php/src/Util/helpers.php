<?php
function helper(): int
{
    return 1;
}
