contract Broken {
    function f(uint a {
        uint b = a + ;
    }
    mapping(address => ) m;
