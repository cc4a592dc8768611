import express, { type Router } from 'express';
import type { AppContext } from '../../context';

/**
 * The signed-in customer's pages (overview, actions). Mounted by routes.ts after the session
 * middleware. SKELETON: the portal-pages branch replaces this before it lands.
 */
export function portalAccountRouter(_ctx: AppContext): Router {
  return express.Router();
}
