// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {Cip23} from "./Cip23.sol";

/// @title Exchange
/// @notice Settles the marketplace's consignment sales on Conflux Core.
///
/// A seller puts a token on shelf by `approve(exchange, tokenId)` on the token
/// contract and signs a CIP-23 `listOrder` (seller, nftToken, tokenId, amount,
/// sellerOrderId). `amount` is the asking price in fen; the contract does not move
/// money (payment is off-chain), it only binds the price into the signature.
/// After the buyer's payment is confirmed off-chain, the platform operator calls
/// `executeOrder`, which checks the seller's signature and moves the token
/// seller -> buyer; `executeOrders` settles many such fills in one transaction, skipping
/// (with a FillSkipped event) each fill that executeOrder would refuse, so one bad fill
/// cannot revert the others. Taking a token off shelf is `approve(address(0), tokenId)`;
/// a seller may also burn an order id on-chain with `cancelOrder`.
///
/// Invariants (each covered by a test on a real node):
///  - the signature is bound to this contract and chain (CIP-23 domain);
///  - a seller's order id is used at most once (fill or cancel), so an order hash fills at
///    most once (the hash commits to the seller and the seller order id); a buyer order id is
///    used at most once;
///  - fill state is keyed by the order ids, never by signature bytes,
///    and malleable (high-s) or malformed signatures are rejected;
///  - only the operator executes, and only while the token is approved to the exchange.
contract Exchange is Ownable, Cip23 {
    struct ListOrder {
        address seller;
        address nftToken;
        uint256 tokenId;
        uint256 amount;
        string sellerOrderId;
    }

    /// One fill of executeOrders: the arguments of executeOrder.
    struct Fill {
        ListOrder order;
        bytes signature;
        address buyer;
        string buyerOrderId;
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

    bytes32 public constant LIST_ORDER_TYPEHASH =
        keccak256("listOrder(address seller,address nftToken,uint256 tokenId,uint256 amount,string sellerOrderId)");

    /// Account allowed to execute orders (the platform's hot wallet).
    address public operator;

    /// State of each seller order id, keyed by sellerOrderKey(seller, sellerOrderId). It is also the
    /// fill state of every order signed with that id: an order's hash (hashOrder) commits to its seller
    /// and seller order id, so no second slot per order hash is written (one storage write and one
    /// slot of storage collateral less per fill).
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
    /// A fill of executeOrders was not executed: `reason` is the selector of the error executeOrder
    /// would have reverted with (e.g. NotOnShelf, ERC721IncorrectOwner), 0 when the revert carried
    /// no selector (out of gas). Nothing of that fill was written.
    event FillSkipped(string buyerOrderId, bytes4 reason);

    error NotOperator(address caller);
    error InvalidOrder();
    error SellerOrderIdUsed(bytes32 sellerOrderKey, OrderIdState state);
    error BuyerOrderIdUsed(string buyerOrderId);
    error NotOnShelf(address nftToken, uint256 tokenId);
    error NotSelf(address caller);

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

    /// @dev The CIP-23 domain name and version of this contract.
    function _cip23NameAndVersion() internal pure override returns (string memory, string memory) {
        return (DOMAIN_NAME, DOMAIN_VERSION);
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
        return _hashTypedData(hashListOrder(order));
    }

    /// @notice hashOrder as it would be on another chain / contract (golden-vector checks).
    function hashOrderForDomain(
        ListOrder calldata order,
        uint256 chainId,
        address verifyingContract
    ) external pure returns (bytes32) {
        return _hashTypedDataFor(hashListOrder(order), chainId, verifyingContract);
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
        return _execute(order, signature, buyer, buyerOrderId);
    }

    /// @notice Settle many paid sales in one transaction. Each fill gets exactly executeOrder's
    /// checks and effects; a fill executeOrder would revert is skipped (its writes undone) with
    /// FillSkipped(buyerOrderId, error selector), and the others go through. A buyerOrderId twice
    /// in one batch fills once (the second is skipped: BuyerOrderIdUsed).
    /// @return executed how many fills were executed
    function executeOrders(Fill[] calldata fills) external onlyOperator returns (uint256 executed) {
        for (uint256 i = 0; i < fills.length; i++) {
            Fill calldata f = fills[i];
            try this.executeFill(f) {
                executed++;
            } catch (bytes memory err) {
                bytes4 reason;
                if (err.length >= 4) reason = bytes4(err);
                emit FillSkipped(f.buyerOrderId, reason);
            }
        }
    }

    /// @notice One fill of executeOrders in its own call frame, so that its revert undoes only
    /// its own writes. Callable by this contract only.
    function executeFill(Fill calldata f) external returns (bytes32) {
        if (msg.sender != address(this)) revert NotSelf(msg.sender);
        return _execute(f.order, f.signature, f.buyer, f.buyerOrderId);
    }

    function _execute(
        ListOrder calldata order,
        bytes calldata signature,
        address buyer,
        string calldata buyerOrderId
    ) private returns (bytes32 orderHash) {
        if (
            order.seller == address(0) || buyer == address(0) || bytes(order.sellerOrderId).length == 0
                || bytes(buyerOrderId).length == 0
        ) revert InvalidOrder();

        orderHash = hashOrder(order);

        // The buyer order id first: a fill sent again (the same buyer order) reverts BuyerOrderIdUsed,
        // which the platform reads as "already settled, check that it was ours"; SellerOrderIdUsed
        // (another buyer's order, or the seller cancelled) means this buyer's order can never fill.
        bytes32 buyerKey = keccak256(bytes(buyerOrderId));
        if (buyerOrderIdUsed[buyerKey]) revert BuyerOrderIdUsed(buyerOrderId);

        bytes32 sellerKey = sellerOrderKey(order.seller, order.sellerOrderId);
        OrderIdState idState = sellerOrderIdState[sellerKey];
        if (idState != OrderIdState.Open) revert SellerOrderIdUsed(sellerKey, idState);

        address signer = _recover(orderHash, signature);
        if (signer != order.seller) revert InvalidSigner(signer, order.seller);

        // On shelf = approved to this exchange for this very token (approve(0) = off shelf).
        IERC721 token = IERC721(order.nftToken);
        if (token.getApproved(order.tokenId) != address(this)) revert NotOnShelf(order.nftToken, order.tokenId);

        // Effects before the interaction.
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

    /// @notice State of an order: filled, its seller id cancelled, or open (the state of its seller order id).
    function orderState(ListOrder calldata order) external view returns (OrderIdState) {
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
}
