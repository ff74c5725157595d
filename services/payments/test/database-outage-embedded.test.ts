import { describeDatabaseOutage } from './database-outage';

describeDatabaseOutage('embedded');
