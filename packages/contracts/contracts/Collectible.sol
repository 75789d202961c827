// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ERC2981} from "@openzeppelin/contracts/token/common/ERC2981.sol";
import {Cip23} from "./Cip23.sol";

/// @title Collectible
/// @notice ERC-721 token of the marketplace's digital collectibles on Conflux Core.
///
/// Key roles: the **owner** (Ownable; the deployer, also the Conflux contract admin and
/// sponsor) changes the operator and the base URI and can stay offline; the **operator**
/// (the platform's hot wallet) mints and submits holder-signed `consumeAndMint` flows.
/// Holders list a token for sale by approving the Exchange for that token id and take it
/// off shelf by approving the zero address (standard ERC-721 `approve`).
///
/// Invariants (each covered by a test on a real node):
///  - only a token's holder, or an address the holder approved, burns it; the operator
///    never burns on its own;
///  - `consumeAndMint` (compose: burn N fragments -> mint the result; blind box: burn
///    the box -> mint the drawn item) runs only with the holder's CIP-23 signature of the
///    exact burn and mint ids, bound to this contract and chain, at most once per
///    (holder, flowId), and burns and mints all ids or nothing.
///  - EIP-2981 `royaltyInfo` answers the royalty of a token's release: each release owns a
///    contiguous token id range, and the operator (or owner) sets one royalty per range
///    (`setRangeRoyalty`, at most MAX_ROYALTY_BPS); a token outside every range gets the
///    owner's default royalty (`setDefaultRoyalty`, none unless set).
contract Collectible is ERC721, ERC2981, Ownable, Cip23 {
    /// What a holder consents to: burn `burnIds` (all owned by `owner`) and receive `mintIds`.
    struct Consume {
        address owner;
        uint256[] burnIds;
        uint256[] mintIds;
        string flowId;
    }

    /// CIP-23 domain of this contract (must match packages/protocol/src/consume.ts).
    string public constant DOMAIN_NAME = "Collectible";
    string public constant DOMAIN_VERSION = "1";

    bytes32 public constant CONSUME_TYPEHASH =
        keccak256("Consume(address owner,uint256[] burnIds,uint256[] mintIds,string flowId)");

    /// Account allowed to mint and to submit signed consume flows (the platform's hot wallet).
    address public operator;

    /// Prefix of every token URI: tokenURI(id) = baseURI + decimal(id).
    string private _baseTokenURI;

    /// Consume flows already executed, keyed by flowKey(owner, flowId).
    mapping(bytes32 key => bool) public flowUsed;

    /// Highest royalty a range may carry, in basis points of the sale price (10 %).
    uint96 public constant MAX_ROYALTY_BPS = 1000;

    /// The royalty of the token ids firstId..lastId (one release): receiver and basis points.
    struct RoyaltyRange {
        uint256 lastId;
        address receiver;
        uint96 bps;
    }

    /// First ids of the royalty ranges, ascending (ranges never overlap).
    uint256[] private _rangeStarts;
    mapping(uint256 firstId => RoyaltyRange) private _ranges;

    event OperatorChanged(address indexed previousOperator, address indexed newOperator);
    event BaseURIChanged(string baseURI);
    event RangeRoyaltySet(uint256 indexed firstId, uint256 lastId, address receiver, uint96 bps);
    event Consumed(
        address indexed owner,
        bytes32 indexed flowIdHash,
        uint256[] burnIds,
        uint256[] mintIds,
        string flowId
    );

    error NotOperator(address caller);
    error LengthMismatch();
    error InvalidConsume();
    error EmptyConsume();
    error FlowIdUsed(bytes32 flowKey);
    error NotTokenOwner(uint256 tokenId, address owner, address actualOwner);
    error InvalidRoyaltyRange(uint256 firstId, uint256 lastId);
    error RoyaltyTooHigh(uint96 bps);

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        _;
    }

    constructor(
        string memory name_,
        string memory symbol_,
        string memory baseURI_,
        address operator_
    ) ERC721(name_, symbol_) Ownable(msg.sender) {
        _baseTokenURI = baseURI_;
        operator = operator_;
        emit OperatorChanged(address(0), operator_);
        emit BaseURIChanged(baseURI_);
    }

    /// @notice Replace the operator (owner only).
    function setOperator(address newOperator) external onlyOwner {
        emit OperatorChanged(operator, newOperator);
        operator = newOperator;
    }

    /// @notice Change the token URI prefix (owner only).
    function setBaseURI(string calldata baseURI_) external onlyOwner {
        _baseTokenURI = baseURI_;
        emit BaseURIChanged(baseURI_);
    }

    function baseURI() external view returns (string memory) {
        return _baseTokenURI;
    }

    // ------------------------------------------------------------------ royalties (EIP-2981)

    /// @notice Set the royalty of the token ids firstId..lastId (a release's range), operator or owner.
    /// A range starting at an existing range's first id replaces it (a release whose supply changed in
    /// place); any other range is added where it belongs and must not overlap another one (new
    /// releases get token ids after every range in use, so adding is usually appending).
    /// `bps` = 0 keeps the range but pays no royalty.
    function setRangeRoyalty(uint256 firstId, uint256 lastId, address receiver, uint96 bps) external {
        if (msg.sender != operator && msg.sender != owner()) revert NotOperator(msg.sender);
        if (bps > MAX_ROYALTY_BPS) revert RoyaltyTooHigh(bps);
        if (lastId < firstId || (bps != 0 && receiver == address(0))) revert InvalidRoyaltyRange(firstId, lastId);
        uint256 n = _rangeStarts.length;
        (bool found, uint256 i) = _rangeAt(firstId);
        if (found && _rangeStarts[i] == firstId) {
            // Replace in place: must still end before the next range.
            if (i + 1 < n && lastId >= _rangeStarts[i + 1]) revert InvalidRoyaltyRange(firstId, lastId);
        } else {
            // Insert at p: after the range before (which must end before firstId), before the next one.
            uint256 p = found ? i + 1 : 0;
            if (found && _ranges[_rangeStarts[i]].lastId >= firstId) revert InvalidRoyaltyRange(firstId, lastId);
            if (p < n && lastId >= _rangeStarts[p]) revert InvalidRoyaltyRange(firstId, lastId);
            _rangeStarts.push(firstId);
            for (uint256 k = n; k > p; k--) _rangeStarts[k] = _rangeStarts[k - 1];
            _rangeStarts[p] = firstId;
        }
        _ranges[firstId] = RoyaltyRange(lastId, receiver, bps);
        emit RangeRoyaltySet(firstId, lastId, receiver, bps);
    }

    /// @notice The royalty for tokens outside every range (owner only; ERC2981's default).
    function setDefaultRoyalty(address receiver, uint96 bps) external onlyOwner {
        if (bps > MAX_ROYALTY_BPS) revert RoyaltyTooHigh(bps);
        _setDefaultRoyalty(receiver, bps);
    }

    /// @notice EIP-2981: the royalty receiver and amount of a sale of `tokenId` at `salePrice`
    /// (floor of salePrice × bps / 10000). The token's range decides; else the default royalty.
    function royaltyInfo(uint256 tokenId, uint256 salePrice) public view override returns (address, uint256) {
        (bool found, uint256 i) = _rangeAt(tokenId);
        if (found) {
            RoyaltyRange storage r = _ranges[_rangeStarts[i]];
            if (tokenId <= r.lastId) return (r.receiver, (salePrice * r.bps) / 10000);
        }
        return super.royaltyInfo(tokenId, salePrice);
    }

    /// @dev Index of the last range starting at or before `tokenId` (binary search).
    function _rangeAt(uint256 tokenId) private view returns (bool found, uint256 index) {
        uint256 lo = 0;
        uint256 hi = _rangeStarts.length;
        while (lo < hi) {
            uint256 mid = (lo + hi) / 2;
            if (_rangeStarts[mid] <= tokenId) lo = mid + 1;
            else hi = mid;
        }
        if (lo == 0) return (false, 0);
        return (true, lo - 1);
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC721, ERC2981) returns (bool) {
        return super.supportsInterface(interfaceId);
    }

    // ------------------------------------------------------------------ mint, burn

    /// @notice Mint `tokenId` to `to`. Reverts if the id exists.
    function mint(address to, uint256 tokenId) external onlyOperator {
        _mint(to, tokenId);
    }

    /// @notice Mint `tokenIds[i]` to `to[i]` for every i.
    function mintBatch(address[] calldata to, uint256[] calldata tokenIds) external onlyOperator {
        if (to.length != tokenIds.length) revert LengthMismatch();
        for (uint256 i = 0; i < to.length; i++) {
            _mint(to[i], tokenIds[i]);
        }
    }

    /// @notice Burn `tokenId`: only its holder or an address the holder approved (for this
    /// token or all of the holder's tokens). The operator has no burn right of its own; the
    /// platform burns through `consumeAndMint` with the holder's signature.
    function burn(uint256 tokenId) external {
        address holder = _requireOwned(tokenId);
        _checkAuthorized(holder, _msgSender(), tokenId);
        _burn(tokenId);
    }

    // ------------------------------------------------------------------ consume (compose, blind box)

    /// @notice Burn `c.burnIds` and mint `c.mintIds` to `c.owner`, atomically, with the
    /// holder's CIP-23 signature of `c`. Operator only; each (owner, flowId) runs once.
    /// @param c what the holder signed (all burnIds must be held by c.owner now)
    /// @param signature 65 bytes r ‖ s ‖ v, v in {0, 1, 27, 28}, low s
    /// @return key flowKey(c.owner, c.flowId), now used
    function consumeAndMint(Consume calldata c, bytes calldata signature) external onlyOperator returns (bytes32 key) {
        if (c.owner == address(0) || bytes(c.flowId).length == 0) revert InvalidConsume();
        if (c.burnIds.length == 0 || c.mintIds.length == 0) revert EmptyConsume();

        key = flowKey(c.owner, c.flowId);
        if (flowUsed[key]) revert FlowIdUsed(key);

        address signer = _recover(consumeDigest(c), signature);
        if (signer != c.owner) revert InvalidSigner(signer, c.owner);

        flowUsed[key] = true;
        // Check and burn in one pass: a duplicate id finds itself already burnt (owner 0).
        for (uint256 i = 0; i < c.burnIds.length; i++) {
            uint256 tokenId = c.burnIds[i];
            address holder = _ownerOf(tokenId);
            if (holder != c.owner) revert NotTokenOwner(tokenId, c.owner, holder);
            _burn(tokenId);
        }
        // Reverts (ERC721InvalidSender) if an id exists.
        for (uint256 i = 0; i < c.mintIds.length; i++) {
            _mint(c.owner, c.mintIds[i]);
        }
        emit Consumed(c.owner, keccak256(bytes(c.flowId)), c.burnIds, c.mintIds, c.flowId);
    }

    /// @notice Key of a holder's flow id in flowUsed.
    function flowKey(address owner_, string calldata flowId) public pure returns (bytes32) {
        return keccak256(abi.encode(owner_, keccak256(bytes(flowId))));
    }

    /// @dev The CIP-23 domain name and version of this contract.
    function _cip23NameAndVersion() internal pure override returns (string memory, string memory) {
        return (DOMAIN_NAME, DOMAIN_VERSION);
    }

    /// @notice CIP-23 struct hash of a Consume (arrays: keccak256 of the packed 32-byte words).
    function hashConsume(Consume calldata c) public pure returns (bytes32) {
        return keccak256(
            abi.encode(
                CONSUME_TYPEHASH,
                c.owner,
                keccak256(abi.encodePacked(c.burnIds)),
                keccak256(abi.encodePacked(c.mintIds)),
                keccak256(bytes(c.flowId))
            )
        );
    }

    /// @notice The digest the holder signs: keccak256(0x1901 ‖ domainSeparator ‖ hashConsume(c)).
    function consumeDigest(Consume calldata c) public view returns (bytes32) {
        return _hashTypedData(hashConsume(c));
    }

    /// @notice consumeDigest as it would be on another chain / contract (golden-vector checks).
    function consumeDigestForDomain(
        Consume calldata c,
        uint256 chainId,
        address verifyingContract
    ) external pure returns (bytes32) {
        return _hashTypedDataFor(hashConsume(c), chainId, verifyingContract);
    }

    /// @notice Recover the signer of `c` (reverts on a malformed or malleable signature).
    function recoverConsumeSigner(Consume calldata c, bytes calldata signature) external view returns (address) {
        return _recover(consumeDigest(c), signature);
    }

    /// @notice Whether `tokenId` has been minted and not burnt.
    function exists(uint256 tokenId) external view returns (bool) {
        return _ownerOf(tokenId) != address(0);
    }

    function _baseURI() internal view override returns (string memory) {
        return _baseTokenURI;
    }
}
