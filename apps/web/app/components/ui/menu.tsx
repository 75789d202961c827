import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/**
 * A small accessible dropdown menu for the header (menu button pattern): click or Enter/Space/
 * ArrowDown opens it, arrow keys move between items, Escape or Tab or an outside click closes it.
 * Used instead of @radix-ui/react-dropdown-menu in the always-loaded header because that costs
 * ~30 KiB gzip of initial JS (popper, focus scope, remove-scroll); dialogs still use Radix.
 */
interface MenuCtx {
  open: boolean;
  setOpen(open: boolean): void;
  menuId: string;
  buttonRef: React.RefObject<HTMLButtonElement | null>;
}
const Ctx = createContext<MenuCtx | null>(null);
const useMenu = () => {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('Menu parts must be inside <Menu>');
  return ctx;
};

export function Menu({ children, className = 'relative' }: { children: ReactNode; className?: string }) {
  const [open, setOpenState] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const setOpen = useCallback((v: boolean) => setOpenState(v), []);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpenState(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  return (
    <Ctx.Provider value={{ open, setOpen, menuId, buttonRef }}>
      <div ref={rootRef} className={className}>
        {children}
      </div>
    </Ctx.Provider>
  );
}

export function MenuButton({ children, className, ...rest }: { children: ReactNode; className?: string; 'data-testid'?: string; 'aria-label'?: string }) {
  const { open, setOpen, menuId, buttonRef } = useMenu();
  const focusFirst = () => requestAnimationFrame(() => document.getElementById(menuId)?.querySelector<HTMLElement>('[role="menuitem"]')?.focus());
  return (
    <button
      ref={buttonRef}
      type="button"
      aria-haspopup="menu"
      aria-expanded={open}
      aria-controls={open ? menuId : undefined}
      data-state={open ? 'open' : 'closed'}
      className={className}
      onClick={() => setOpen(!open)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || ((e.key === 'Enter' || e.key === ' ') && !open)) {
          e.preventDefault();
          setOpen(true);
          focusFirst();
        }
      }}
      {...rest}
    >
      {children}
    </button>
  );
}

export function MenuItems({ children, className = '', align = 'end', ...rest }: { children: ReactNode; className?: string; align?: 'start' | 'end'; 'data-testid'?: string }) {
  const { open, setOpen, menuId, buttonRef } = useMenu();
  if (!open) return null;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(e.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]'));
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = e.key === 'ArrowDown' ? (i + 1) % items.length : (i - 1 + items.length) % items.length;
      items[next]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      items[e.key === 'Home' ? 0 : items.length - 1]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
  };
  return (
    <div
      id={menuId}
      role="menu"
      onKeyDown={onKeyDown}
      // Choosing an item (link or button) closes the menu.
      onClick={(e) => (e.target as HTMLElement).closest('[role="menuitem"]') && setOpen(false)}
      className={`absolute top-full z-[60] mt-2 min-w-40 rounded-card border border-line bg-surface p-1.5 shadow-pop ${align === 'end' ? 'right-0' : 'left-0'} ${className}`}
      {...rest}
    >
      {children}
    </div>
  );
}

export const menuItemClass =
  'flex w-full cursor-pointer items-center gap-1.5 rounded-md px-3 py-2 text-left text-sm text-ink outline-none hover:bg-canvas hover:text-brand focus:bg-canvas focus:text-brand';

export function MenuSeparator() {
  return <div role="separator" className="my-1 h-px bg-line" />;
}
