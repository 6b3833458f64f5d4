// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./interfaces/IERC20.sol";
import {Ownable} from "./access/Ownable.sol";

/// @title A simple token vault, to exercise the Solidity grammar.
/// @notice Grüße — こんにちは — 🏦 (non-ASCII only in comments and strings)
interface IVault {
    event Deposited(address indexed account, uint256 amount);
    event Withdrawn(address indexed account, uint256 amount);

    function deposit(uint256 amount) external;
    function withdraw(uint256 amount) external returns (bool);
}

library SafeMath {
    function add(uint256 a, uint256 b) internal pure returns (uint256) {
        uint256 c = a + b;
        require(c >= a, "SafeMath: addition overflow");
        return c;
    }
}

error InsufficientBalance(uint256 requested, uint256 available);

abstract contract Pausable {
    bool public paused;

    modifier whenNotPaused() {
        require(!paused, "paused");
        _;
    }

    function _pause() internal virtual {
        paused = true;
    }
}

contract Vault is IVault, Ownable, Pausable {
    using SafeMath for uint256;

    struct Account {
        uint256 balance;
        uint64 lastDeposit;
        bool frozen;
    }

    enum Tier { Basic, Silver, Gold }

    IERC20 public immutable token;
    uint256 public constant MAX_DEPOSIT = 1_000_000 ether;
    string public greeting = unicode"Grüße 🏦";
    mapping(address => Account) private accounts;
    address[] public holders;
    uint256 private totalDeposits;

    constructor(IERC20 _token) Ownable(msg.sender) {
        token = _token;
    }

    function deposit(uint256 amount) external override whenNotPaused {
        require(amount > 0 && amount <= MAX_DEPOSIT, "bad amount");
        Account storage acct = accounts[msg.sender];
        if (acct.balance == 0) {
            holders.push(msg.sender);
        }
        acct.balance = acct.balance.add(amount);
        acct.lastDeposit = uint64(block.timestamp);
        totalDeposits += amount;
        bool ok = token.transferFrom(msg.sender, address(this), amount);
        require(ok, "transfer failed");
        emit Deposited(msg.sender, amount);
    }

    function withdraw(uint256 amount) external override returns (bool) {
        Account storage acct = accounts[msg.sender];
        if (acct.balance < amount) {
            revert InsufficientBalance({requested: amount, available: acct.balance});
        }
        unchecked {
            acct.balance -= amount;
        }
        totalDeposits -= amount;
        emit Withdrawn(msg.sender, amount);
        return token.transfer(msg.sender, amount);
    }

    function tierOf(address who) public view returns (Tier) {
        uint256 b = accounts[who].balance;
        if (b >= 100 ether) return Tier.Gold;
        else if (b >= 10 ether) return Tier.Silver;
        return Tier.Basic;
    }

    function balances() external view returns (uint256[] memory out) {
        out = new uint256[](holders.length);
        for (uint256 i = 0; i < holders.length; i++) {
            out[i] = accounts[holders[i]].balance;
        }
    }

    function pause() external onlyOwner {
        _pause();
    }

    function hashOf(bytes calldata data) external pure returns (bytes32) {
        return keccak256(abi.encodePacked(data, hex"deadbeef"));
    }

    receive() external payable {}

    fallback() external payable {
        revert("no fallback");
    }
}
