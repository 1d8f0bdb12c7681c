import { APP_CONFIG, type AppConfig } from '@app/config';
import { AccountDocuments } from '@app/credentials';
import { SQL_CLIENT, type SqlClient } from '@app/database';

/** The documents' sealed bytes (libs/credentials), for the API's routes and the audit console. */
export const accountDocumentsProvider = { provide: AccountDocuments, useFactory: (db: SqlClient, config: AppConfig) => new AccountDocuments(db, config.secretsKey), inject: [SQL_CLIENT, APP_CONFIG] };
