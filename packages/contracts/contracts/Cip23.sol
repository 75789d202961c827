// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title Cip23
/// @notice CIP-23 (Conflux's EIP-712) typed-data hashing and strict signature recovery, shared by
/// the Collectible (Consume) and the Exchange (listOrder).
///
/// The domain is `CIP23Domain(string name,string version,uint256 chainId,address verifyingContract)`
/// with the inheriting contract's name and version (`_cip23NameAndVersion`); the digest a wallet
/// signs is keccak256(0x1901 ‖ domainSeparator ‖ structHash). packages/protocol/src/cip23.ts and
/// consume.ts compute the same digests off chain (pinned by golden vectors).
abstract contract Cip23 {
    bytes32 public constant DOMAIN_TYPEHASH =
        keccak256("CIP23Domain(string name,string version,uint256 chainId,address verifyingContract)");

    /// secp256k1n / 2: signatures with a larger s are malleable copies and are rejected.
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    error InvalidSignatureLength(uint256 length);
    error InvalidSignatureV(uint8 v);
    error InvalidSignatureS(bytes32 s);
    /// `expected` is the address that had to sign (the holder or the seller); both zero when no signer was recovered.
    error InvalidSigner(address recovered, address expected);

    /// @dev The domain's name and version (the inheriting contract's DOMAIN_NAME and DOMAIN_VERSION).
    function _cip23NameAndVersion() internal pure virtual returns (string memory name, string memory version);

    /// @notice CIP-23 domain separator: name, version, this chain's id and this contract.
    function domainSeparator() public view returns (bytes32) {
        return domainSeparatorFor(block.chainid, address(this));
    }

    /// @notice Domain separator for any chain id / contract (golden-vector checks).
    function domainSeparatorFor(uint256 chainId, address verifyingContract) public pure returns (bytes32) {
        (string memory name, string memory version) = _cip23NameAndVersion();
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256(bytes(version)), chainId, verifyingContract)
        );
    }

    /// @dev keccak256(0x1901 ‖ domainSeparator ‖ structHash) on this chain and contract.
    function _hashTypedData(bytes32 structHash) internal view returns (bytes32) {
        return keccak256(abi.encodePacked(hex"1901", domainSeparator(), structHash));
    }

    /// @dev The same digest for another chain id / contract (golden-vector checks).
    function _hashTypedDataFor(
        bytes32 structHash,
        uint256 chainId,
        address verifyingContract
    ) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked(hex"1901", domainSeparatorFor(chainId, verifyingContract), structHash));
    }

    /// @dev Strict ECDSA recovery: exactly 65 bytes, v in {27, 28} after adding 27 to 0/1
    /// (Conflux wallets sign with v = 0/1), s in the lower half order, non-zero signer.
    /// On Conflux Core ecrecover returns the 0x1… hex form of the user's address.
    function _recover(bytes32 digest, bytes calldata signature) internal pure returns (address signer) {
        if (signature.length != 65) revert InvalidSignatureLength(signature.length);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (v != 27 && v != 28) revert InvalidSignatureV(uint8(signature[64]));
        if (uint256(s) > HALF_ORDER) revert InvalidSignatureS(s);
        signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert InvalidSigner(address(0), address(0));
    }
}
