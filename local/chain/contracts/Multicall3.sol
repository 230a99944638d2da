// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * The part of Multicall3 (deployed at 0xcA11bde05977b3631167028862bE2a173976CA11 on Base and
 * most chains) that the x402 facilitator uses to explain a refused payment (balance, token
 * name and version, nonce already used). local/chain/start.ts places this code at that
 * address on the local chain, which has no Multicall3 of its own.
 */
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls)
        public
        payable
        returns (Result[] memory returnData)
    {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(success, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }
}
