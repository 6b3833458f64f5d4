<?php
function broken($a, {
    return $a + ;
}
class C { public function f( }
