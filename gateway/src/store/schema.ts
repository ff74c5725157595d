/** The PostgreSQL schema of the gateway's tables (raw SQL must qualify names with it). */
export const GATEWAY_SCHEMA = 'gateway';
