import { describeDatabaseOutage } from './database-outage';

describeDatabaseOutage('rabbitmq');
