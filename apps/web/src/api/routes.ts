import { routeTable, type routes as contractRoutes } from '@vrtc/contract';

/**
 * The API's routes as the console calls them: `api.call(routes.listVrUsers, …)`.
 *
 * Typed as the contract's full route definitions, so the client infers each route's params,
 * query, body and answer from its schemas; at run time only the contract's route table is
 * bundled (method and path, all the client reads). The schemas and TypeBox stay out of the
 * browser: they were a third of the JavaScript the login page loads.
 */
export const routes = routeTable as unknown as typeof contractRoutes;
