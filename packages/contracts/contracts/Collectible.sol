// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Collectible
/// @notice ERC-721 token of the marketplace's digital collectibles on Conflux Core.
/// Only the platform operator mints and burns; holders list a token for sale by
/// approving the Exchange for that token id and take it off shelf by approving the
/// zero address (standard ERC-721 `approve`).
contract Collectible is ERC721, Ownable {
    /// Account allowed to mint and burn (the platform's hot wallet).
    address public operator;

    /// Prefix of every token URI: tokenURI(id) = baseURI + decimal(id).
    string private _baseTokenURI;

    event OperatorChanged(address indexed previousOperator, address indexed newOperator);
    event BaseURIChanged(string baseURI);

    error NotOperator(address caller);
    error LengthMismatch();

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

    /// @notice Burn `tokenId` (e.g. fragments consumed by a composition). Operator only.
    function burn(uint256 tokenId) external onlyOperator {
        _burn(tokenId);
    }

    /// @notice Whether `tokenId` has been minted and not burnt.
    function exists(uint256 tokenId) external view returns (bool) {
        return _ownerOf(tokenId) != address(0);
    }

    function _baseURI() internal view override returns (string memory) {
        return _baseTokenURI;
    }
}
