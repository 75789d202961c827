// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @title Exchange
/// @notice Settles the marketplace's consignment sales on Conflux Core.
///
/// A seller puts a token on shelf by `approve(exchange, tokenId)` on the token
/// contract and signs a CIP-23 `listOrder` (seller, nftToken, tokenId, amount,
/// sellerOrderId). `amount` is the asking price in fen; the contract does not move
/// money (payment is off-chain), it only binds the price into the signature.
/// After the buyer's payment is confirmed off-chain, the platform operator calls
/// `executeOrder`, which checks the seller's signature and moves the token
/// seller -> buyer. Taking a token off shelf is `approve(address(0), tokenId)`;
/// a seller may also burn an order id on-chain with `cancelOrder`.
///
/// Invariants (each covered by a test on a real node):
///  - the signature is bound to this contract and chain (CIP-23 domain);
///  - an order hash fills at most once, a seller's order id is used at most once
///    (fill or cancel), a buyer order id is used at most once;
///  - fill state is keyed by the order hash / order ids, never by signature bytes,
///    and malleable (high-s) or malformed signatures are rejected;
///  - only the operator executes, and only while the token is approved to the exchange.
contract Exchange is Ownable {
    struct ListOrder {
        address seller;
        address nftToken;
        uint256 tokenId;
        uint256 amount;
        string sellerOrderId;
    }

    /// State of a seller's order id.
    enum OrderIdState {
        Open,
        Filled,
        Cancelled
    }

    /// CIP-23 domain name and version (must match packages/protocol/src/cip23.ts).
    string public constant DOMAIN_NAME = "1";
    string public constant DOMAIN_VERSION = "1";

    bytes32 public constant DOMAIN_TYPEHASH =
        keccak256("CIP23Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 public constant LIST_ORDER_TYPEHASH =
        keccak256("listOrder(address seller,address nftToken,uint256 tokenId,uint256 amount,string sellerOrderId)");

    /// secp256k1n / 2: signatures with a larger s are malleable copies and are rejected.
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// Account allowed to execute orders (the platform's hot wallet).
    address public operator;

    /// Fill state keyed by the order's CIP-23 digest (hashOrder), never by signature bytes.
    mapping(bytes32 orderHash => bool) public filled;
    /// State of each seller order id, keyed by sellerOrderKey(seller, sellerOrderId).
    mapping(bytes32 key => OrderIdState) public sellerOrderIdState;
    /// Buyer order ids already settled, keyed by keccak256(bytes(buyerOrderId)).
    mapping(bytes32 key => bool) public buyerOrderIdUsed;

    event OperatorChanged(address indexed previousOperator, address indexed newOperator);
    event OrderExecuted(
        bytes32 indexed orderHash,
        address indexed seller,
        address indexed buyer,
        address nftToken,
        uint256 tokenId,
        uint256 amount,
        string sellerOrderId,
        string buyerOrderId
    );
    event OrderCancelled(bytes32 indexed sellerOrderKey, address indexed seller, string sellerOrderId);

    error NotOperator(address caller);
    error InvalidOrder();
    error InvalidSignatureLength(uint256 length);
    error InvalidSignatureV(uint8 v);
    error InvalidSignatureS(bytes32 s);
    error InvalidSigner(address recovered, address seller);
    error OrderAlreadyFilled(bytes32 orderHash);
    error SellerOrderIdUsed(bytes32 sellerOrderKey, OrderIdState state);
    error BuyerOrderIdUsed(string buyerOrderId);
    error NotOnShelf(address nftToken, uint256 tokenId);

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        _;
    }

    constructor(address operator_) Ownable(msg.sender) {
        operator = operator_;
        emit OperatorChanged(address(0), operator_);
    }

    /// @notice Replace the operator (owner only).
    function setOperator(address newOperator) external onlyOwner {
        emit OperatorChanged(operator, newOperator);
        operator = newOperator;
    }

    // ------------------------------------------------------------------ hashing

    /// @notice CIP-23 domain separator: name, version, this chain's id and this contract.
    function domainSeparator() public view returns (bytes32) {
        return domainSeparatorFor(block.chainid, address(this));
    }

    /// @notice Domain separator for any chain id / contract (golden-vector checks).
    function domainSeparatorFor(uint256 chainId, address verifyingContract) public pure returns (bytes32) {
        return keccak256(
            abi.encode(
                DOMAIN_TYPEHASH,
                keccak256(bytes(DOMAIN_NAME)),
                keccak256(bytes(DOMAIN_VERSION)),
                chainId,
                verifyingContract
            )
        );
    }

    /// @notice CIP-23 struct hash of a listOrder.
    function hashListOrder(ListOrder calldata order) public pure returns (bytes32) {
        return keccak256(
            abi.encode(
                LIST_ORDER_TYPEHASH,
                order.seller,
                order.nftToken,
                order.tokenId,
                order.amount,
                keccak256(bytes(order.sellerOrderId))
            )
        );
    }

    /// @notice The digest the seller signs: keccak256(0x1901 ‖ domainSeparator ‖ structHash).
    /// It is also the order's identity for the fill state.
    function hashOrder(ListOrder calldata order) public view returns (bytes32) {
        return keccak256(abi.encodePacked(hex"1901", domainSeparator(), hashListOrder(order)));
    }

    /// @notice hashOrder as it would be on another chain / contract (golden-vector checks).
    function hashOrderForDomain(
        ListOrder calldata order,
        uint256 chainId,
        address verifyingContract
    ) external pure returns (bytes32) {
        return keccak256(
            abi.encodePacked(hex"1901", domainSeparatorFor(chainId, verifyingContract), hashListOrder(order))
        );
    }

    /// @notice Key of a seller's order id in sellerOrderIdState.
    function sellerOrderKey(address seller, string calldata sellerOrderId) public pure returns (bytes32) {
        return keccak256(abi.encode(seller, keccak256(bytes(sellerOrderId))));
    }

    /// @notice Recover the signer of `order` (reverts on a malformed or malleable signature).
    function recoverSigner(ListOrder calldata order, bytes calldata signature) external view returns (address) {
        return _recover(hashOrder(order), signature);
    }

    // ------------------------------------------------------------------ trading

    /// @notice Settle a paid sale: verify the seller's signature and move the token to the buyer.
    /// @param order the listOrder the seller signed
    /// @param signature 65 bytes r ‖ s ‖ v, v in {0, 1, 27, 28}, low s
    /// @param buyer receiver of the token
    /// @param buyerOrderId the platform's id of the buyer's (paid) order, single use
    function executeOrder(
        ListOrder calldata order,
        bytes calldata signature,
        address buyer,
        string calldata buyerOrderId
    ) external onlyOperator returns (bytes32 orderHash) {
        if (
            order.seller == address(0) || buyer == address(0) || bytes(order.sellerOrderId).length == 0
                || bytes(buyerOrderId).length == 0
        ) revert InvalidOrder();

        orderHash = hashOrder(order);
        if (filled[orderHash]) revert OrderAlreadyFilled(orderHash);

        bytes32 sellerKey = sellerOrderKey(order.seller, order.sellerOrderId);
        OrderIdState idState = sellerOrderIdState[sellerKey];
        if (idState != OrderIdState.Open) revert SellerOrderIdUsed(sellerKey, idState);

        bytes32 buyerKey = keccak256(bytes(buyerOrderId));
        if (buyerOrderIdUsed[buyerKey]) revert BuyerOrderIdUsed(buyerOrderId);

        address signer = _recover(orderHash, signature);
        if (signer != order.seller) revert InvalidSigner(signer, order.seller);

        // On shelf = approved to this exchange for this very token (approve(0) = off shelf).
        IERC721 token = IERC721(order.nftToken);
        if (token.getApproved(order.tokenId) != address(this)) revert NotOnShelf(order.nftToken, order.tokenId);

        // Effects before the interaction.
        filled[orderHash] = true;
        sellerOrderIdState[sellerKey] = OrderIdState.Filled;
        buyerOrderIdUsed[buyerKey] = true;

        // Reverts (ERC721IncorrectOwner) if the seller no longer owns the token.
        token.transferFrom(order.seller, buyer, order.tokenId);

        _emitExecuted(orderHash, order, buyer, buyerOrderId);
    }

    /// @notice The caller (a seller) cancels one of its order ids: any order signed with
    /// it can no longer be executed. Idempotent for an already cancelled id.
    function cancelOrder(string calldata sellerOrderId) external {
        bytes32 key = sellerOrderKey(msg.sender, sellerOrderId);
        OrderIdState state = sellerOrderIdState[key];
        if (state == OrderIdState.Cancelled) return;
        if (state == OrderIdState.Filled) revert SellerOrderIdUsed(key, state);
        sellerOrderIdState[key] = OrderIdState.Cancelled;
        emit OrderCancelled(key, msg.sender, sellerOrderId);
    }

    /// @notice State of an order: filled, its seller id cancelled, or open.
    function orderState(ListOrder calldata order) external view returns (OrderIdState) {
        if (filled[hashOrder(order)]) return OrderIdState.Filled;
        return sellerOrderIdState[sellerOrderKey(order.seller, order.sellerOrderId)];
    }

    // ------------------------------------------------------------------ internals

    /// @dev Separate frame for the event (avoids "stack too deep" without viaIR).
    function _emitExecuted(
        bytes32 orderHash,
        ListOrder calldata order,
        address buyer,
        string calldata buyerOrderId
    ) private {
        emit OrderExecuted(
            orderHash,
            order.seller,
            buyer,
            order.nftToken,
            order.tokenId,
            order.amount,
            order.sellerOrderId,
            buyerOrderId
        );
    }

    /// @dev Strict ECDSA recovery: exactly 65 bytes, v in {27, 28} after adding 27 to 0/1
    /// (Conflux wallets sign with v = 0/1), s in the lower half order, non-zero signer.
    /// On Conflux Core ecrecover returns the 0x1… hex form of the user's address.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address signer) {
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
