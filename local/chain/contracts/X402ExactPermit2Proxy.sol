// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The x402 exact scheme's Permit2 proxy for the local chain, written for this repository from
// the interface the x402 EVM package calls (x402ExactPermit2ProxyABI: settle, settleWithPermit,
// PERMIT2, WITNESS_TYPEHASH, WITNESS_TYPE_STRING, and its errors) and the exact scheme's
// rules. local/chain/start.ts places it at the proxy's canonical address, where the x402
// client has the payer sign it in as the spender, and the facilitator calls it.
//
// The payer signs a Permit2 PermitWitnessTransferFrom whose spender is this contract and whose
// witness is {to, validAfter}. Permit2 checks the signature over all of it, spends the nonce,
// and moves exactly the permitted amount to witness.to: whoever calls settle can neither
// redirect the funds nor change the amount.

interface ISignatureTransfer {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom memory permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

interface IERC20Permit {
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;
}

contract X402ExactPermit2Proxy {
    struct Witness {
        address to;
        uint256 validAfter;
    }

    struct EIP2612Permit {
        uint256 value;
        uint256 deadline;
        bytes32 r;
        bytes32 s;
        uint8 v;
    }

    /// The part of the signed type Permit2 appends after its own fields (EIP-712 order).
    string public constant WITNESS_TYPE_STRING =
        "Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,uint256 validAfter)";
    bytes32 public constant WITNESS_TYPEHASH = keccak256("Witness(address to,uint256 validAfter)");

    ISignatureTransfer public immutable PERMIT2;
    bool private entered;

    event Settled();
    event SettledWithPermit();

    error InvalidAmount();
    error InvalidDestination();
    error InvalidOwner();
    error InvalidPermit2Address();
    error PaymentTooEarly();
    error Permit2612AmountMismatch();
    error ReentrancyGuardReentrantCall();

    modifier nonReentrant() {
        if (entered) revert ReentrancyGuardReentrantCall();
        entered = true;
        _;
        entered = false;
    }

    constructor(address permit2) {
        if (permit2 == address(0)) revert InvalidPermit2Address();
        PERMIT2 = ISignatureTransfer(permit2);
    }

    /// Moves the permitted amount from `owner` to `witness.to` (the payer approved Permit2).
    function settle(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _settle(permit, owner, witness, signature);
        emit Settled();
    }

    /// The same, after an EIP-2612 permit that approves Permit2 (a payer without approval).
    function settleWithPermit(
        EIP2612Permit calldata permit2612,
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        if (permit2612.value < permit.permitted.amount) revert Permit2612AmountMismatch();
        // A permit already used (or front-run) leaves the approval in place: settle anyway.
        try
            IERC20Permit(permit.permitted.token).permit(
                owner,
                address(PERMIT2),
                permit2612.value,
                permit2612.deadline,
                permit2612.v,
                permit2612.r,
                permit2612.s
            )
        {} catch {}
        _settle(permit, owner, witness, signature);
        emit SettledWithPermit();
    }

    function _settle(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) private {
        if (owner == address(0)) revert InvalidOwner();
        if (witness.to == address(0)) revert InvalidDestination();
        if (permit.permitted.amount == 0) revert InvalidAmount();
        if (block.timestamp < witness.validAfter) revert PaymentTooEarly();
        PERMIT2.permitWitnessTransferFrom(
            permit,
            ISignatureTransfer.SignatureTransferDetails({
                to: witness.to,
                requestedAmount: permit.permitted.amount
            }),
            owner,
            keccak256(abi.encode(WITNESS_TYPEHASH, witness.to, witness.validAfter)),
            WITNESS_TYPE_STRING,
            signature
        );
    }
}
