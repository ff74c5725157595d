import { useQuery } from '@tanstack/react-query';
import { apiToolsKeys, type OpenApiDocument } from './api';
import { catalogueOf, type Catalogue } from './model';

/** The catalogue of what the admin may call, from the gateway's OpenAPI document (asked for once: it changes only with a release). */
export const useCatalogue = () => useQuery<OpenApiDocument, Error, Catalogue>({ queryKey: apiToolsKeys.document, select: catalogueOf });

/** The request log is the overview's query, polled as it is there (document 1, section 9). */
export { useRequestLog } from '../overview/queries';
