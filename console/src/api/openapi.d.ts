/**
 * Generated from openapi.json by openapi-typescript (`npm run openapi`). Do not edit: change the route schemas
 * in src/wire/ and regenerate. console/src/api/types.ts names the shapes the console reads.
 */

export interface paths {
    "/api/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server version */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            version: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/canned-responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Canned responses the caller may see, filtered (filters only narrow) and paged */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    shortcut?: string;
                    text?: string;
                    scope?: "global" | "department" | "user";
                    tags?: string[];
                    departmentId?: string;
                    createdBy?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cannedResponses: {
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _createdAt: string;
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                createdBy: {
                                    _id: string;
                                    username: string;
                                };
                                departmentId?: string;
                                /** @enum {string} */
                                scope: "global" | "department" | "user";
                                shortcut: string;
                                tags: string[];
                                text: string;
                                userId?: string;
                            }[];
                            count: number;
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a canned response, or update one (with _id), as the scope rules allow */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        _id?: string;
                        departmentId?: string;
                        /** @enum {string} */
                        scope: "global" | "department" | "user";
                        shortcut: string;
                        tags?: string[];
                        text: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cannedResponse: {
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _createdAt: string;
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                createdBy: {
                                    _id: string;
                                    username: string;
                                };
                                departmentId?: string;
                                /** @enum {string} */
                                scope: "global" | "department" | "user";
                                shortcut: string;
                                tags: string[];
                                text: string;
                                userId?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Remove a canned response (Rocket.Chat's older form: the id in the body) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        _id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/canned-responses.get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every canned response the caller may see, by shortcut */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            responses: {
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _createdAt: string;
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                createdBy: {
                                    _id: string;
                                    username: string;
                                };
                                departmentId?: string;
                                /** @enum {string} */
                                scope: "global" | "department" | "user";
                                shortcut: string;
                                tags: string[];
                                text: string;
                                userId?: string;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/canned-responses/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One canned response; unknown or not visible: 404 */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cannedResponse: {
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _createdAt: string;
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                createdBy: {
                                    _id: string;
                                    username: string;
                                };
                                departmentId?: string;
                                /** @enum {string} */
                                scope: "global" | "department" | "user";
                                shortcut: string;
                                tags: string[];
                                text: string;
                                userId?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Remove a canned response, as the scope rules allow */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/channels.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a public channel (create-c) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        customFields?: {
                            [key: string]: unknown;
                        };
                        extraData?: {
                            [key: string]: unknown;
                        };
                        members?: string[];
                        name?: string;
                        readOnly?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channel: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                archived?: boolean;
                                customFields?: {
                                    [key: string]: unknown;
                                };
                                default?: boolean;
                                departmentId?: string;
                                description?: string;
                                /** @enum {boolean} */
                                featured?: true;
                                fname?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                name?: string;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                ro?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts?: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                t: "c" | "p" | "d" | "l";
                                topic?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u?: {
                                    _id: string;
                                    username: string;
                                };
                                usersCount: number;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/channels.delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete a channel (delete-c / delete-p, or the room owner) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        roomId?: string;
                        roomName?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/channels.info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A channel by id or name */
        get: {
            parameters: {
                query?: {
                    roomId?: string;
                    roomName?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channel: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                cl: boolean;
                                /** @enum {string} */
                                closeReason?: "visitor" | "agent" | "abandoned" | "onHoldTimeout" | "queueTimeout";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                closedAt?: string;
                                closedBy?: {
                                    _id: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                closer?: "visitor" | "user";
                                departmentId?: string;
                                fname?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                jitsiTimeout?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                livechatData?: {
                                    [key: string]: string;
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    username: string;
                                };
                                source: {
                                    /** @enum {string} */
                                    type: "widget" | "api";
                                };
                                surveyFeedback?: {
                                    [key: string]: string;
                                };
                                /** @enum {string} */
                                t: "l";
                                tags?: string[];
                                timers?: {
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    dueAt: string;
                                    /** @enum {string} */
                                    kind: "autoTransfer" | "onHoldClose" | "inactivity" | "queueTimeout";
                                }[];
                                topic?: string;
                                transferHistory?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    previousDepartment?: string;
                                    scope: string;
                                    transferredBy: {
                                        _id: string;
                                        type: string;
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    type: string;
                                }[];
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                usersCount: number;
                                v: {
                                    _id: string;
                                    /** @enum {string} */
                                    status: "online" | "away" | "busy" | "offline";
                                    username: string;
                                };
                                waitingResponse: boolean;
                            } | {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                archived?: boolean;
                                customFields?: {
                                    [key: string]: unknown;
                                };
                                default?: boolean;
                                departmentId?: string;
                                description?: string;
                                /** @enum {boolean} */
                                featured?: true;
                                fname?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                name?: string;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                ro?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts?: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                t: "c" | "p" | "d" | "l";
                                topic?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u?: {
                                    _id: string;
                                    username: string;
                                };
                                usersCount: number;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/channels.join": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join a public channel */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        roomId?: string;
                        roomName?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channel: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                archived?: boolean;
                                customFields?: {
                                    [key: string]: unknown;
                                };
                                default?: boolean;
                                departmentId?: string;
                                description?: string;
                                /** @enum {boolean} */
                                featured?: true;
                                fname?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                name?: string;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                ro?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts?: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                t: "c" | "p" | "d" | "l";
                                topic?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u?: {
                                    _id: string;
                                    username: string;
                                };
                                usersCount: number;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/channels.leave": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Leave a channel */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        roomId?: string;
                        roomName?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channel: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                archived?: boolean;
                                customFields?: {
                                    [key: string]: unknown;
                                };
                                default?: boolean;
                                departmentId?: string;
                                description?: string;
                                /** @enum {boolean} */
                                featured?: true;
                                fname?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                name?: string;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                ro?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts?: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                t: "c" | "p" | "d" | "l";
                                topic?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u?: {
                                    _id: string;
                                    username: string;
                                };
                                usersCount: number;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat.sendMessage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message to a room */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: {
                            _id?: string;
                            msg: string;
                            rid: string;
                        };
                        previewUrls?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attachments?: {
                                    audio_size?: number;
                                    audio_type?: string;
                                    audio_url?: string;
                                    description?: string;
                                    format?: string;
                                    image_dimensions?: {
                                        height: number;
                                        width: number;
                                    };
                                    image_size?: number;
                                    image_type?: string;
                                    image_url?: string;
                                    size?: number;
                                    title: string;
                                    title_link: string;
                                    title_link_download: boolean;
                                    /** @enum {string} */
                                    type: "file";
                                    video_size?: number;
                                    video_type?: string;
                                    video_url?: string;
                                }[];
                                file?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                };
                                files?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                }[];
                                groupable?: boolean;
                                msg: string;
                                navigation?: {
                                    page: {
                                        change: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                };
                                rid: string;
                                /** @enum {string} */
                                t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                /** @enum {boolean} */
                                transcriptRequested?: true;
                                transferData?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    /** @enum {string} */
                                    scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                    transferredBy: {
                                        _id: string;
                                        /** @enum {string} */
                                        type: "visitor" | "user";
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u: {
                                    _id: string;
                                    name?: string;
                                    username: string;
                                };
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The test clock (CLOCK=manual only) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the clock, ISO 8601 */
                            now: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Move the test clock forward (CLOCK=manual only); answers once every job due by then has run */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description seconds to move forward */
                        advance?: number;
                        /** @description the new time, ISO 8601 */
                        set?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description jobs that ran while the clock moved */
                            fired: number;
                            /** @description the clock, ISO 8601 */
                            now: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search users or channels (literal, case-insensitive substring) */
        get: {
            parameters: {
                query?: {
                    text?: string;
                    type?: string;
                    workspace?: string;
                    /** @description JSON {"text":..,"type":..} (older clients); plain text/type win */
                    query?: string;
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            result: {
                                _id: string;
                                archived?: boolean;
                                avatarETag?: string;
                                bio?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt?: string;
                                default?: boolean;
                                description?: string;
                                emails?: {
                                    address: string;
                                    verified: boolean;
                                }[];
                                /** @enum {boolean} */
                                featured?: true;
                                fname?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                name?: string;
                                nickname?: string;
                                /** @enum {string} */
                                t?: "c" | "p" | "d" | "l";
                                topic?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts?: string;
                                username?: string;
                                usernames?: string[];
                                usersCount?: number;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email-outbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The e-mail outbox, newest first */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    status?: "queued" | "sent" | "failed" | "unsent-no-smtp";
                    kind?: "offline-message" | "offline-reply" | "transcript" | "test" | "rating";
                    rid?: string;
                    offlineMessageId?: string;
                    text?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            emails: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attempts: number;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                from: string;
                                /** @enum {string} */
                                kind: "offline-message" | "offline-reply" | "transcript" | "test" | "rating";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastAttemptAt?: string;
                                lastError?: string;
                                messageId: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                nextAttemptAt?: string;
                                offlineMessageId?: string;
                                replyTo?: string;
                                requestedBy: {
                                    _id?: string;
                                    /** @enum {string} */
                                    type: "visitor" | "user" | "system";
                                    username?: string;
                                };
                                rid?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                sentAt?: string;
                                /** @enum {string} */
                                status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                subject: string;
                                to: string[];
                                visitorId?: string;
                            }[];
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email-outbox.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test e-mail (to `to`, or the caller’s verified address) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        to?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attempts: number;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                from: string;
                                html: string;
                                /** @enum {string} */
                                kind: "offline-message" | "offline-reply" | "transcript" | "test" | "rating";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastAttemptAt?: string;
                                lastError?: string;
                                messageId: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                nextAttemptAt?: string;
                                offlineMessageId?: string;
                                replyTo?: string;
                                requestedBy: {
                                    _id?: string;
                                    /** @enum {string} */
                                    type: "visitor" | "user" | "system";
                                    username?: string;
                                };
                                rid?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                sentAt?: string;
                                /** @enum {string} */
                                status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                subject: string;
                                text: string;
                                to: string[];
                                visitorId?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email-outbox/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One outbox e-mail with its text and HTML parts */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attempts: number;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                from: string;
                                html: string;
                                /** @enum {string} */
                                kind: "offline-message" | "offline-reply" | "transcript" | "test" | "rating";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastAttemptAt?: string;
                                lastError?: string;
                                messageId: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                nextAttemptAt?: string;
                                offlineMessageId?: string;
                                replyTo?: string;
                                requestedBy: {
                                    _id?: string;
                                    /** @enum {string} */
                                    type: "visitor" | "user" | "system";
                                    username?: string;
                                };
                                rid?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                sentAt?: string;
                                /** @enum {string} */
                                status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                subject: string;
                                text: string;
                                to: string[];
                                visitorId?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email-outbox/{_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a failed or unsent e-mail again */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attempts: number;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                from: string;
                                html: string;
                                /** @enum {string} */
                                kind: "offline-message" | "offline-reply" | "transcript" | "test" | "rating";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastAttemptAt?: string;
                                lastError?: string;
                                messageId: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                nextAttemptAt?: string;
                                offlineMessageId?: string;
                                replyTo?: string;
                                requestedBy: {
                                    _id?: string;
                                    /** @enum {string} */
                                    type: "visitor" | "user" | "system";
                                    username?: string;
                                };
                                rid?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                sentAt?: string;
                                /** @enum {string} */
                                status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                subject: string;
                                text: string;
                                to: string[];
                                visitorId?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/groups.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a private group (create-p) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        customFields?: {
                            [key: string]: unknown;
                        };
                        extraData?: {
                            [key: string]: unknown;
                        };
                        members?: string[];
                        name?: string;
                        readOnly?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            group: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                archived?: boolean;
                                customFields?: {
                                    [key: string]: unknown;
                                };
                                default?: boolean;
                                departmentId?: string;
                                description?: string;
                                /** @enum {boolean} */
                                featured?: true;
                                fname?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                name?: string;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                ro?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts?: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                t: "c" | "p" | "d" | "l";
                                topic?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u?: {
                                    _id: string;
                                    username: string;
                                };
                                usersCount: number;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/im.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open (or find) a direct-message room (create-d) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        username?: string;
                        usernames?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            room: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                archived?: boolean;
                                customFields?: {
                                    [key: string]: unknown;
                                };
                                default?: boolean;
                                departmentId?: string;
                                description?: string;
                                /** @enum {boolean} */
                                featured?: true;
                                fname?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                name?: string;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                rid: string;
                                ro?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts?: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                t: "c" | "p" | "d" | "l";
                                topic?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u?: {
                                    _id: string;
                                    username: string;
                                };
                                usernames: string[];
                                usersCount: number;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/agent.info/{rid}/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent serving the room */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent: {
                                _id?: string;
                                emails?: {
                                    address: string;
                                }[];
                                /** @enum {boolean} */
                                hiddenInfo?: true;
                                name?: string;
                                /** @enum {string} */
                                status?: "online" | "away" | "busy" | "offline";
                                username?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/agent.load": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's open chats, on hold, and limits (DESK.md D2) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            departments: {
                                _id: string;
                                isOpen: boolean;
                                limit: number | null;
                                name: string;
                                open: number;
                            }[];
                            limit: number | null;
                            onHold: number;
                            open: number;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/agent.next/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent serving the token's open room, else whom routing would pick now (no _id) */
        get: {
            parameters: {
                query?: {
                    department?: string;
                };
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent: {
                                _id?: string;
                                emails?: {
                                    address: string;
                                }[];
                                /** @enum {boolean} */
                                hiddenInfo?: true;
                                name?: string;
                                /** @enum {string} */
                                status?: "online" | "away" | "busy" | "offline";
                                username?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/agent.status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set (or toggle) an agent's livechat availability */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        agentId?: string;
                        status?: "available" | "not-available";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/agents.saveInfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set an agent's chat limit and departments (DESK.md D2) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        agentData: {
                            maxNumberSimultaneousChat?: number | string;
                        };
                        agentDepartments?: string[];
                        agentId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/analytics/dashboards/agents-productivity-totalizers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Busiest hour, mean available time and mean service time of a range */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    departmentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            totalizers: {
                                title: string;
                                value: string | number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/analytics/dashboards/charts/agents-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Agents by status now */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    departmentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            available: number;
                            away: number;
                            busy: number;
                            offline: number;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/analytics/dashboards/charts/chats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Chats started in a range by their state now */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    departmentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            closed: number;
                            onhold: number;
                            open: number;
                            queued: number;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/analytics/dashboards/charts/chats-per-agent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Chats started in a range per serving agent (by username) */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    departmentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        } & {
                            [key: string]: {
                                closed: number;
                                onhold: number;
                                open: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/analytics/dashboards/charts/chats-per-department": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Chats started in a range per department (by name) */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    departmentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        } & {
                            [key: string]: {
                                closed: number;
                                open: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/analytics/dashboards/charts/timings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Mean and longest reply, reaction and chat duration of a range */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    departmentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            chatDuration: {
                                avg: number;
                                longest: number;
                            };
                            reaction: {
                                avg: number;
                                longest: number;
                            };
                            response: {
                                avg: number;
                                longest: number;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/analytics/dashboards/chats-totalizers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Abandoned chats and the mean chat duration of a range */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    departmentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            totalizers: {
                                title: string;
                                value: string | number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/analytics/dashboards/conversation-totalizers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Conversations, open, on hold, messages and visitors of a range */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    departmentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            totalizers: {
                                title: string;
                                value: string | number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/analytics/dashboards/productivity-totalizers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Mean reply, first response, reaction and waiting times of a range */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    departmentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            totalizers: {
                                title: string;
                                value: string | number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/business-hour": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A business-hours schedule by id, else the default */
        get: {
            parameters: {
                query?: {
                    _id?: string;
                    type?: "default" | "custom";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            businessHour?: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                active: boolean;
                                departments?: {
                                    _id: string;
                                    name: string;
                                }[];
                                holidays: {
                                    date: string;
                                    finish?: string;
                                    name?: string;
                                    start?: string;
                                }[];
                                name: string;
                                nextChangeAt: string | null;
                                openNow: boolean;
                                timezone: {
                                    name: string;
                                    utc: string;
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                /** @enum {string} */
                                type: "default" | "custom";
                                workHours: {
                                    /** @enum {string} */
                                    day: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                    finish: {
                                        cron: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                        time: string;
                                        utc: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                    };
                                    open: boolean;
                                    start: {
                                        cron: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                        time: string;
                                        utc: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                    };
                                }[];
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/business-hours": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List business-hours schedules */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    name?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            businessHours: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                active: boolean;
                                departments?: {
                                    _id: string;
                                    name: string;
                                }[];
                                holidays: {
                                    date: string;
                                    finish?: string;
                                    name?: string;
                                    start?: string;
                                }[];
                                name: string;
                                nextChangeAt: string | null;
                                openNow: boolean;
                                timezone: {
                                    name: string;
                                    utc: string;
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                /** @enum {string} */
                                type: "default" | "custom";
                                workHours: {
                                    /** @enum {string} */
                                    day: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                    finish: {
                                        cron: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                        time: string;
                                        utc: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                    };
                                    open: boolean;
                                    start: {
                                        cron: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                        time: string;
                                        utc: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                    };
                                }[];
                            }[];
                            count: number;
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/business-hours.remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove a custom business-hours schedule (its departments follow the default again) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        _id: string;
                        /** @enum {string} */
                        type: "default" | "custom";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/business-hours.save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create or update a business-hours schedule */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        _id?: string;
                        active: boolean;
                        /** @description department ids, comma-separated */
                        departmentsToApplyBusinessHour?: string;
                        holidays?: {
                            /** @description local date, YYYY-MM-DD */
                            date: string;
                            /** @description local time, HH:mm[:ss], or 24:00 */
                            finish?: string;
                            name?: string;
                            /** @description local time, HH:mm[:ss] */
                            start?: string;
                        }[];
                        name: string;
                        timezone?: string | {
                            name: string;
                        };
                        timezoneName?: string;
                        /** @enum {string} */
                        type: "default" | "custom";
                        workHours: {
                            /** @enum {string} */
                            day: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                            /** @description local time, HH:mm[:ss], or 24:00 */
                            finish: string;
                            open: boolean;
                            /** @description local time, HH:mm[:ss] */
                            start: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            businessHour: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                active: boolean;
                                departments?: {
                                    _id: string;
                                    name: string;
                                }[];
                                holidays: {
                                    date: string;
                                    finish?: string;
                                    name?: string;
                                    start?: string;
                                }[];
                                name: string;
                                nextChangeAt: string | null;
                                openNow: boolean;
                                timezone: {
                                    name: string;
                                    utc: string;
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                /** @enum {string} */
                                type: "default" | "custom";
                                workHours: {
                                    /** @enum {string} */
                                    day: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                    finish: {
                                        cron: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                        time: string;
                                        utc: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                    };
                                    open: boolean;
                                    start: {
                                        cron: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                        time: string;
                                        utc: {
                                            /** @enum {string} */
                                            dayOfWeek: "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";
                                            time: string;
                                        };
                                    };
                                }[];
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Widget configuration */
        get: {
            parameters: {
                query?: {
                    token?: string;
                    department?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            config: {
                                agent?: {
                                    _id?: string;
                                    emails?: {
                                        address: string;
                                    }[];
                                    /** @enum {boolean} */
                                    hiddenInfo?: true;
                                    name?: string;
                                    /** @enum {string} */
                                    status?: "online" | "away" | "busy" | "offline";
                                    username?: string;
                                };
                                customFields: {
                                    _id: string;
                                    defaultValue: string | null;
                                    label: string;
                                    options?: string[];
                                    regexp: string;
                                    required: boolean;
                                    type: string;
                                }[];
                                departments: {
                                    _id: string;
                                    name: string;
                                    showOnOfflineForm: boolean;
                                    showOnRegistration: boolean;
                                }[];
                                enabled: boolean;
                                guest?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    department?: string;
                                    livechatData: {
                                        [key: string]: string;
                                    };
                                    name?: string;
                                    phone?: {
                                        phoneNumber: string;
                                    }[];
                                    /** @enum {string} */
                                    status: "online" | "away" | "busy" | "offline";
                                    token: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    username: string;
                                    visitorEmails?: {
                                        address: string;
                                    }[];
                                };
                                messages: {
                                    conversationFinishedMessage: string;
                                    conversationFinishedText: string;
                                    dataProcessingConsentText: string;
                                    offlineMessage: string;
                                    offlineSuccessMessage: string;
                                    offlineUnavailableMessage: string;
                                    transcriptMessage: string;
                                };
                                online: boolean;
                                queueInfo?: {
                                    estimatedWaitTimeSeconds: number;
                                    message: {
                                        text: string;
                                        user: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    spot: number;
                                };
                                resources: {
                                    sound: string;
                                };
                                room?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    cl: boolean;
                                    /** @enum {string} */
                                    closeReason?: "visitor" | "agent" | "abandoned" | "onHoldTimeout" | "queueTimeout";
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    closedAt?: string;
                                    closedBy?: {
                                        _id: string;
                                        username: string;
                                    };
                                    /** @enum {string} */
                                    closer?: "visitor" | "user";
                                    departmentId?: string;
                                    fname?: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    jitsiTimeout?: string;
                                    lastMessage?: {
                                        _id: string;
                                        /** @description ISO 8601 UTC timestamp with milliseconds */
                                        _updatedAt: string;
                                        attachments?: {
                                            audio_size?: number;
                                            audio_type?: string;
                                            audio_url?: string;
                                            description?: string;
                                            format?: string;
                                            image_dimensions?: {
                                                height: number;
                                                width: number;
                                            };
                                            image_size?: number;
                                            image_type?: string;
                                            image_url?: string;
                                            size?: number;
                                            title: string;
                                            title_link: string;
                                            title_link_download: boolean;
                                            /** @enum {string} */
                                            type: "file";
                                            video_size?: number;
                                            video_type?: string;
                                            video_url?: string;
                                        }[];
                                        file?: {
                                            _id: string;
                                            format: string;
                                            name: string;
                                            size: number;
                                            type: string;
                                        };
                                        files?: {
                                            _id: string;
                                            format: string;
                                            name: string;
                                            size: number;
                                            type: string;
                                        }[];
                                        groupable?: boolean;
                                        msg: string;
                                        navigation?: {
                                            page: {
                                                change: string;
                                                location: {
                                                    href: string;
                                                };
                                                title: string;
                                            };
                                        };
                                        rid: string;
                                        /** @enum {string} */
                                        t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                        /** @enum {boolean} */
                                        transcriptRequested?: true;
                                        transferData?: {
                                            comment?: string;
                                            nextDepartment?: {
                                                _id: string;
                                                name: string;
                                            };
                                            /** @enum {string} */
                                            scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                            transferredBy: {
                                                _id: string;
                                                /** @enum {string} */
                                                type: "visitor" | "user";
                                                username: string;
                                            };
                                            transferredTo?: {
                                                _id: string;
                                                username: string;
                                            };
                                        };
                                        /** @description ISO 8601 UTC timestamp with milliseconds */
                                        ts: string;
                                        u: {
                                            _id: string;
                                            name?: string;
                                            username: string;
                                        };
                                    };
                                    livechatData?: {
                                        [key: string]: string;
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    lm?: string;
                                    msgs: number;
                                    /** @enum {boolean} */
                                    onHold?: true;
                                    open?: boolean;
                                    servedBy?: {
                                        _id: string;
                                        /** @description ISO 8601 UTC timestamp with milliseconds */
                                        ts: string;
                                        username: string;
                                    };
                                    source: {
                                        /** @enum {string} */
                                        type: "widget" | "api";
                                    };
                                    surveyFeedback?: {
                                        [key: string]: string;
                                    };
                                    /** @enum {string} */
                                    t: "l";
                                    tags?: string[];
                                    timers?: {
                                        /** @description ISO 8601 UTC timestamp with milliseconds */
                                        dueAt: string;
                                        /** @enum {string} */
                                        kind: "autoTransfer" | "onHoldClose" | "inactivity" | "queueTimeout";
                                    }[];
                                    topic?: string;
                                    transferHistory?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        previousDepartment?: string;
                                        scope: string;
                                        transferredBy: {
                                            _id: string;
                                            type: string;
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                        /** @description ISO 8601 UTC timestamp with milliseconds */
                                        ts: string;
                                        type: string;
                                    }[];
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    usersCount: number;
                                    v: {
                                        _id: string;
                                        /** @enum {string} */
                                        status: "online" | "away" | "busy" | "offline";
                                        token: string;
                                        username: string;
                                    };
                                    waitingResponse: boolean;
                                };
                                settings: {
                                    agentHiddenInfo: boolean;
                                    allowSwitchingDepartments: boolean;
                                    displayOfflineForm: boolean;
                                    emailFieldRegistrationForm: boolean;
                                    fileUpload: boolean;
                                    forceAcceptDataProcessingConsent: boolean;
                                    historyMonitorType: string;
                                    limitTextLength: number | false;
                                    nameFieldRegistrationForm: boolean;
                                    registrationForm: boolean;
                                    showConnecting: boolean;
                                    transcript: boolean;
                                };
                                survey: {
                                    items: string[];
                                    values: string[];
                                };
                                theme: {
                                    color: string;
                                    offlineColor: string;
                                    offlineTitle: string;
                                    title: string;
                                };
                                triggers: {
                                    _id: string;
                                    actions: {
                                        name: string;
                                        params?: {
                                            [key: string]: string;
                                        };
                                    }[];
                                    conditions: {
                                        name: string;
                                        value: string | null;
                                    }[];
                                    runOnce: boolean;
                                }[];
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/custom-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Custom-field definitions, by label */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    text?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            customFields: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                defaultValue: string;
                                label: string;
                                options: string;
                                public: boolean;
                                regexp: string;
                                required: boolean;
                                /** @enum {string} */
                                scope: "visitor" | "room";
                                searchable: boolean;
                                /** @enum {string} */
                                type: "input" | "select";
                                /** @enum {string} */
                                visibility: "visible" | "hidden";
                            }[];
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/custom-fields.delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete a custom-field definition (stored values stay) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        customFieldId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/custom-fields.save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a custom field, or replace one (with customFieldId; the id stays) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        customFieldData: {
                            defaultValue?: string;
                            field: string;
                            label: string;
                            options?: string;
                            public?: boolean;
                            regexp?: string;
                            required?: boolean;
                            /** @enum {string} */
                            scope: "visitor" | "room";
                            searchable?: boolean;
                            /** @enum {string} */
                            type?: "input" | "select";
                            /** @enum {string} */
                            visibility: "visible" | "hidden";
                        };
                        customFieldId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            customField: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                defaultValue: string;
                                label: string;
                                options: string;
                                public: boolean;
                                regexp: string;
                                required: boolean;
                                /** @enum {string} */
                                scope: "visitor" | "room";
                                searchable: boolean;
                                /** @enum {string} */
                                type: "input" | "select";
                                /** @enum {string} */
                                visibility: "visible" | "hidden";
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/custom-fields/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A custom-field definition, or null */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            customField: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                defaultValue: string;
                                label: string;
                                options: string;
                                public: boolean;
                                regexp: string;
                                required: boolean;
                                /** @enum {string} */
                                scope: "visitor" | "room";
                                searchable: boolean;
                                /** @enum {string} */
                                type: "input" | "select";
                                /** @enum {string} */
                                visibility: "visible" | "hidden";
                            } | null;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/custom.field": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sets one of the visitor's custom values (widget) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        key: string;
                        overwrite: boolean;
                        token: string;
                        value: string | number | boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            field: {
                                key: string;
                                overwrite: boolean;
                                value: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/custom.fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sets several of the visitor's custom values, all or nothing (widget) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        customFields: {
                            key: string;
                            overwrite: boolean;
                            value: string | number | boolean;
                        }[];
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            fields: {
                                Key: string;
                                overwrite: boolean;
                                value: string;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/department": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List departments */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    text?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            departments: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                abandonedRoomsCloseCustomMessage?: string;
                                chatClosingTags?: string[];
                                description?: string;
                                email?: string;
                                enabled: boolean;
                                maxNumberSimultaneousChat?: number;
                                name: string;
                                numAgents: number;
                                requestTagBeforeClosingChat?: boolean;
                                showOnOfflineForm: boolean;
                                showOnRegistration: boolean;
                                visitorInactivityTimeoutInSeconds?: number;
                                waitingQueueMessage?: string;
                            }[];
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a department */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        agents?: {
                            agentId: string;
                            username?: string;
                        }[];
                        department: {
                            abandonedRoomsCloseCustomMessage?: string;
                            chatClosingTags?: string[];
                            description?: string;
                            email: string;
                            enabled: boolean;
                            maxNumberSimultaneousChat?: number | string;
                            name: string;
                            requestTagBeforeClosingChat?: boolean;
                            showOnOfflineForm: boolean;
                            showOnRegistration: boolean;
                            visitorInactivityTimeoutInSeconds?: number | string;
                            waitingQueueMessage?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agents: {
                                agentId: string;
                                count: number;
                                departmentId: string;
                                order: number;
                                username: string;
                            }[];
                            department: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                abandonedRoomsCloseCustomMessage?: string;
                                chatClosingTags?: string[];
                                description?: string;
                                email?: string;
                                enabled: boolean;
                                maxNumberSimultaneousChat?: number;
                                name: string;
                                numAgents: number;
                                requestTagBeforeClosingChat?: boolean;
                                showOnOfflineForm: boolean;
                                showOnRegistration: boolean;
                                visitorInactivityTimeoutInSeconds?: number;
                                waitingQueueMessage?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/department/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A department and its agents */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agents: {
                                agentId: string;
                                count: number;
                                departmentId: string;
                                order: number;
                                username: string;
                            }[];
                            department: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                abandonedRoomsCloseCustomMessage?: string;
                                chatClosingTags?: string[];
                                description?: string;
                                email?: string;
                                enabled: boolean;
                                maxNumberSimultaneousChat?: number;
                                name: string;
                                numAgents: number;
                                requestTagBeforeClosingChat?: boolean;
                                showOnOfflineForm: boolean;
                                showOnRegistration: boolean;
                                visitorInactivityTimeoutInSeconds?: number;
                                waitingQueueMessage?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Update a department */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        agents?: {
                            agentId: string;
                            username?: string;
                        }[];
                        department: {
                            abandonedRoomsCloseCustomMessage?: string;
                            chatClosingTags?: string[];
                            description?: string;
                            email: string;
                            enabled: boolean;
                            maxNumberSimultaneousChat?: number | string;
                            name: string;
                            requestTagBeforeClosingChat?: boolean;
                            showOnOfflineForm: boolean;
                            showOnRegistration: boolean;
                            visitorInactivityTimeoutInSeconds?: number | string;
                            waitingQueueMessage?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agents: {
                                agentId: string;
                                count: number;
                                departmentId: string;
                                order: number;
                                username: string;
                            }[];
                            department: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                abandonedRoomsCloseCustomMessage?: string;
                                chatClosingTags?: string[];
                                description?: string;
                                email?: string;
                                enabled: boolean;
                                maxNumberSimultaneousChat?: number;
                                name: string;
                                numAgents: number;
                                requestTagBeforeClosingChat?: boolean;
                                showOnOfflineForm: boolean;
                                showOnRegistration: boolean;
                                visitorInactivityTimeoutInSeconds?: number;
                                waitingQueueMessage?: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a department without open rooms */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/department/{_id}/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add, update and remove a department's agents */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        remove?: {
                            agentId: string;
                        }[];
                        upsert?: {
                            agentId: string;
                            count?: number;
                            order?: number;
                            username?: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/inquiries.getOne": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A room's inquiry */
        get: {
            parameters: {
                query: {
                    roomId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            inquiry: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                department?: string;
                                estimatedWaitingTimeQueue: number;
                                message: string;
                                name?: string;
                                position?: number;
                                priorityWeight: number;
                                rid: string;
                                status: string;
                                /** @enum {string} */
                                t: "l";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                v: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                            } | null;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/inquiries.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every inquiry, queued or taken, newest first; `department` an id or a name (DESK D2) */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    department?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            inquiries: {
                                _id?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt?: string;
                                department?: string;
                                estimatedWaitingTimeQueue?: number;
                                message?: string;
                                name?: string;
                                position?: number;
                                priorityWeight?: number;
                                rid?: string;
                                status?: string;
                                /** @enum {string} */
                                t?: "l";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts?: string;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                            }[];
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/inquiries.queuedForUser": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Queued inquiries the caller may take, oldest first */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    department?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            inquiries: {
                                _id?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt?: string;
                                department?: string;
                                estimatedWaitingTimeQueue?: number;
                                message?: string;
                                name?: string;
                                position?: number;
                                priorityWeight?: number;
                                rid?: string;
                                status?: string;
                                /** @enum {string} */
                                t?: "l";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts?: string;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                            }[];
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/inquiries.take": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Take a queued inquiry (exactly once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        inquiryId: string;
                        userId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            inquiry: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                department?: string;
                                estimatedWaitingTimeQueue: number;
                                message: string;
                                name?: string;
                                position?: number;
                                priorityWeight: number;
                                rid: string;
                                status: string;
                                /** @enum {string} */
                                t: "l";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                v: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                            } | null;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/integrations.settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The webhook settings (the secret as value "" plus isSet) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            settings: {
                                _id: string;
                                /** @description secrets only: whether a value is stored (the value is never returned) */
                                isSet?: boolean;
                                value: unknown;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message as the visitor */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        _id?: string;
                        msg: string;
                        rid: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attachments?: {
                                    audio_size?: number;
                                    audio_type?: string;
                                    audio_url?: string;
                                    description?: string;
                                    format?: string;
                                    image_dimensions?: {
                                        height: number;
                                        width: number;
                                    };
                                    image_size?: number;
                                    image_type?: string;
                                    image_url?: string;
                                    size?: number;
                                    title: string;
                                    title_link: string;
                                    title_link_download: boolean;
                                    /** @enum {string} */
                                    type: "file";
                                    video_size?: number;
                                    video_type?: string;
                                    video_url?: string;
                                }[];
                                file?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                };
                                fileUpload?: {
                                    publicFilePath: string;
                                    size: number;
                                    type: string;
                                };
                                files?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                }[];
                                groupable?: boolean;
                                msg: string;
                                navigation?: {
                                    page: {
                                        change: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                };
                                rid: string;
                                /** @enum {string} */
                                t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                token?: string;
                                /** @enum {boolean} */
                                transcriptRequested?: true;
                                transferData?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    /** @enum {string} */
                                    scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                    transferredBy: {
                                        _id: string;
                                        /** @enum {string} */
                                        type: "visitor" | "user";
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u: {
                                    _id: string;
                                    name?: string;
                                    username: string;
                                };
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/message/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One message of the visitor's room (widget) */
        get: {
            parameters: {
                query: {
                    token: string;
                    rid: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attachments?: {
                                    audio_size?: number;
                                    audio_type?: string;
                                    audio_url?: string;
                                    description?: string;
                                    format?: string;
                                    image_dimensions?: {
                                        height: number;
                                        width: number;
                                    };
                                    image_size?: number;
                                    image_type?: string;
                                    image_url?: string;
                                    size?: number;
                                    title: string;
                                    title_link: string;
                                    title_link_download: boolean;
                                    /** @enum {string} */
                                    type: "file";
                                    video_size?: number;
                                    video_type?: string;
                                    video_url?: string;
                                }[];
                                file?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                };
                                fileUpload?: {
                                    publicFilePath: string;
                                    size: number;
                                    type: string;
                                };
                                files?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                }[];
                                groupable?: boolean;
                                msg: string;
                                navigation?: {
                                    page: {
                                        change: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                };
                                rid: string;
                                /** @enum {string} */
                                t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                token?: string;
                                /** @enum {boolean} */
                                transcriptRequested?: true;
                                transferData?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    /** @enum {string} */
                                    scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                    transferredBy: {
                                        _id: string;
                                        /** @enum {string} */
                                        type: "visitor" | "user";
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u: {
                                    _id: string;
                                    name?: string;
                                    username: string;
                                };
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/messages.history/{rid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The visitor's room history, newest first */
        get: {
            parameters: {
                query: {
                    token: string;
                    limit?: number;
                    offset?: number;
                    end?: string;
                    ls?: string;
                    count?: string;
                    sort?: string;
                    searchText?: string;
                };
                header?: never;
                path: {
                    rid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            messages: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attachments?: {
                                    audio_size?: number;
                                    audio_type?: string;
                                    audio_url?: string;
                                    description?: string;
                                    format?: string;
                                    image_dimensions?: {
                                        height: number;
                                        width: number;
                                    };
                                    image_size?: number;
                                    image_type?: string;
                                    image_url?: string;
                                    size?: number;
                                    title: string;
                                    title_link: string;
                                    title_link_download: boolean;
                                    /** @enum {string} */
                                    type: "file";
                                    video_size?: number;
                                    video_type?: string;
                                    video_url?: string;
                                }[];
                                file?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                };
                                fileUpload?: {
                                    publicFilePath: string;
                                    size: number;
                                    type: string;
                                };
                                files?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                }[];
                                groupable?: boolean;
                                msg: string;
                                navigation?: {
                                    page: {
                                        change: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                };
                                rid: string;
                                /** @enum {string} */
                                t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                token?: string;
                                /** @enum {boolean} */
                                transcriptRequested?: true;
                                transferData?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    /** @enum {string} */
                                    scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                    transferredBy: {
                                        _id: string;
                                        /** @enum {string} */
                                        type: "visitor" | "user";
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u: {
                                    _id: string;
                                    name?: string;
                                    username: string;
                                };
                            }[];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/offline-messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Offline messages the caller may read, newest first */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    status?: "new" | "handled";
                    department?: string;
                    text?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offlineMessages: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                department: {
                                    _id: string;
                                    name: string;
                                } | null;
                                email: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                handledAt?: string;
                                handledBy?: {
                                    _id: string;
                                    username: string;
                                };
                                host: string | null;
                                message: string;
                                name: string;
                                notification?: {
                                    _id: string;
                                    /** @enum {string} */
                                    status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                };
                                replies: {
                                    _id: string;
                                    msg: string;
                                    /** @enum {string} */
                                    status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                }[];
                                /** @enum {string} */
                                status: "new" | "handled";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                            }[];
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/offline-messages/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One offline message */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            offlineMessage: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                department: {
                                    _id: string;
                                    name: string;
                                } | null;
                                email: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                handledAt?: string;
                                handledBy?: {
                                    _id: string;
                                    username: string;
                                };
                                host: string | null;
                                message: string;
                                name: string;
                                notification?: {
                                    _id: string;
                                    /** @enum {string} */
                                    status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                };
                                replies: {
                                    _id: string;
                                    msg: string;
                                    /** @enum {string} */
                                    status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                }[];
                                /** @enum {string} */
                                status: "new" | "handled";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an offline message and its unsent mails */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/offline-messages/{_id}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answer an offline message by e-mail (through the outbox) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        markHandled?: boolean;
                        msg: string;
                        subject?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attempts: number;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                from: string;
                                /** @enum {string} */
                                kind: "offline-message" | "offline-reply" | "transcript" | "test" | "rating";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastAttemptAt?: string;
                                lastError?: string;
                                messageId: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                nextAttemptAt?: string;
                                offlineMessageId?: string;
                                replyTo?: string;
                                requestedBy: {
                                    _id?: string;
                                    /** @enum {string} */
                                    type: "visitor" | "user" | "system";
                                    username?: string;
                                };
                                rid?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                sentAt?: string;
                                /** @enum {string} */
                                status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                subject: string;
                                to: string[];
                                visitorId?: string;
                            };
                            offlineMessage: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                department: {
                                    _id: string;
                                    name: string;
                                } | null;
                                email: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                handledAt?: string;
                                handledBy?: {
                                    _id: string;
                                    username: string;
                                };
                                host: string | null;
                                message: string;
                                name: string;
                                notification?: {
                                    _id: string;
                                    /** @enum {string} */
                                    status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                };
                                replies: {
                                    _id: string;
                                    msg: string;
                                    /** @enum {string} */
                                    status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                }[];
                                /** @enum {string} */
                                status: "new" | "handled";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/offline-messages/{_id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark an offline message handled or new */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "new" | "handled";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            offlineMessage: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                department: {
                                    _id: string;
                                    name: string;
                                } | null;
                                email: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                handledAt?: string;
                                handledBy?: {
                                    _id: string;
                                    username: string;
                                };
                                host: string | null;
                                message: string;
                                name: string;
                                notification?: {
                                    _id: string;
                                    /** @enum {string} */
                                    status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                };
                                replies: {
                                    _id: string;
                                    msg: string;
                                    /** @enum {string} */
                                    status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                }[];
                                /** @enum {string} */
                                status: "new" | "handled";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/offline.message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Leave a message while no agent is available (always stored; mailed when a recipient is set) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        department?: string;
                        email: string;
                        host?: string | null;
                        message: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/page.visited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Records the page the visitor is on (widget; before registration too) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        pageInfo: {
                            change?: string;
                            location: {
                                href: string;
                            };
                            title?: string;
                        };
                        rid?: string | null;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            page?: {
                                msg: string;
                                navigation: {
                                    page: {
                                        change?: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                    token: string;
                                };
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open served rooms per agent and department, most first; available agents only unless includeOfflineAgents=true (DESK D2) */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    agentId?: string;
                    departmentId?: string;
                    includeOfflineAgents?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            queue: {
                                chats: number;
                                department: {
                                    _id?: string;
                                    name?: string;
                                };
                                user: {
                                    _id: string;
                                    status: string;
                                    userId: string;
                                    username: string;
                                };
                            }[];
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/reports.export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every conversation created in a range as CSV, streamed (DESK D8) */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    timezone?: string;
                    departmentId?: string | string[];
                    agentId?: string | string[];
                    businessHours?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/csv; charset=utf-8 */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/reports.metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Counts, means, medians and 90th percentiles of the desk over a range, grouped (DESK D8) */
        get: {
            parameters: {
                query?: {
                    start?: string;
                    end?: string;
                    timezone?: string;
                    departmentId?: string | string[];
                    agentId?: string | string[];
                    businessHours?: "true" | "false";
                    groupBy?: "none" | "day" | "week" | "hourOfWeek" | "agent" | "department";
                    metrics?: ("queueWait" | "firstResponse" | "reaction" | "replyTime" | "resolution" | "handleTime" | "csat" | "conversations" | "closed" | "missed" | "abandoned" | "messagesIn" | "messagesOut") | ("queueWait" | "firstResponse" | "reaction" | "replyTime" | "resolution" | "handleTime" | "csat" | "conversations" | "closed" | "missed" | "abandoned" | "messagesIn" | "messagesOut")[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            businessHours: boolean;
                            end: string;
                            groups: {
                                agent?: {
                                    _id: string;
                                    name: string | null;
                                    username: string;
                                };
                                department?: {
                                    _id: string;
                                    name: string;
                                } | null;
                                key: string;
                                totals: {
                                    abandoned?: {
                                        count: number;
                                    };
                                    closed?: {
                                        count: number;
                                    };
                                    conversations?: {
                                        count: number;
                                    };
                                    csat?: {
                                        count: number;
                                        mean: number | null;
                                        median: number | null;
                                        p90: number | null;
                                        score: number | null;
                                    };
                                    firstResponse?: {
                                        count: number;
                                        mean: number | null;
                                        median: number | null;
                                        p90: number | null;
                                    };
                                    handleTime?: {
                                        count: number;
                                        mean: number | null;
                                        median: number | null;
                                        p90: number | null;
                                    };
                                    messagesIn?: {
                                        count: number;
                                    };
                                    messagesOut?: {
                                        count: number;
                                    };
                                    missed?: {
                                        count: number;
                                    };
                                    queueWait?: {
                                        count: number;
                                        mean: number | null;
                                        median: number | null;
                                        p90: number | null;
                                    };
                                    reaction?: {
                                        count: number;
                                        mean: number | null;
                                        median: number | null;
                                        p90: number | null;
                                    };
                                    replyTime?: {
                                        count: number;
                                        mean: number | null;
                                        median: number | null;
                                        p90: number | null;
                                    };
                                    resolution?: {
                                        count: number;
                                        mean: number | null;
                                        median: number | null;
                                        p90: number | null;
                                    };
                                };
                            }[];
                            start: string;
                            /** @enum {boolean} */
                            success: true;
                            timezone: string;
                            totals: {
                                abandoned?: {
                                    count: number;
                                };
                                closed?: {
                                    count: number;
                                };
                                conversations?: {
                                    count: number;
                                };
                                csat?: {
                                    count: number;
                                    mean: number | null;
                                    median: number | null;
                                    p90: number | null;
                                    score: number | null;
                                };
                                firstResponse?: {
                                    count: number;
                                    mean: number | null;
                                    median: number | null;
                                    p90: number | null;
                                };
                                handleTime?: {
                                    count: number;
                                    mean: number | null;
                                    median: number | null;
                                    p90: number | null;
                                };
                                messagesIn?: {
                                    count: number;
                                };
                                messagesOut?: {
                                    count: number;
                                };
                                missed?: {
                                    count: number;
                                };
                                queueWait?: {
                                    count: number;
                                    mean: number | null;
                                    median: number | null;
                                    p90: number | null;
                                };
                                reaction?: {
                                    count: number;
                                    mean: number | null;
                                    median: number | null;
                                    p90: number | null;
                                };
                                replyTime?: {
                                    count: number;
                                    mean: number | null;
                                    median: number | null;
                                    p90: number | null;
                                };
                                resolution?: {
                                    count: number;
                                    mean: number | null;
                                    median: number | null;
                                    p90: number | null;
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/reports.snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The desk now: open, waiting and on-hold chats, the longest wait and each agent (DESK D8) */
        get: {
            parameters: {
                query?: {
                    departmentId?: string | string[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agentList: {
                                _id: string;
                                limit: number | null;
                                name: string | null;
                                onHold: number;
                                open: number;
                                state: "available" | "busy" | "unavailable";
                                status: string;
                                statusLivechat: string | null;
                                username: string;
                            }[];
                            agents: {
                                available: number;
                                busy: number;
                                unavailable: number;
                            };
                            longestWaitSeconds: number;
                            onHold: number;
                            open: number;
                            queued: number;
                            /** @enum {boolean} */
                            success: true;
                            unassigned: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The visitor's open room, opened if needed (one open room per visitor) */
        get: {
            parameters: {
                query: {
                    token: string;
                    rid?: string;
                    agentId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            newRoom: boolean;
                            room: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                cl: boolean;
                                /** @enum {string} */
                                closeReason?: "visitor" | "agent" | "abandoned" | "onHoldTimeout" | "queueTimeout";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                closedAt?: string;
                                closedBy?: {
                                    _id: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                closer?: "visitor" | "user";
                                departmentId?: string;
                                fname?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                jitsiTimeout?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                livechatData?: {
                                    [key: string]: string;
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    username: string;
                                };
                                source: {
                                    /** @enum {string} */
                                    type: "widget" | "api";
                                };
                                surveyFeedback?: {
                                    [key: string]: string;
                                };
                                /** @enum {string} */
                                t: "l";
                                tags?: string[];
                                timers?: {
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    dueAt: string;
                                    /** @enum {string} */
                                    kind: "autoTransfer" | "onHoldClose" | "inactivity" | "queueTimeout";
                                }[];
                                topic?: string;
                                transferHistory?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    previousDepartment?: string;
                                    scope: string;
                                    transferredBy: {
                                        _id: string;
                                        type: string;
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    type: string;
                                }[];
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                usersCount: number;
                                v: {
                                    _id: string;
                                    /** @enum {string} */
                                    status: "online" | "away" | "busy" | "offline";
                                    token: string;
                                    username: string;
                                };
                                waitingResponse: boolean;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room.close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close the room (visitor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        rid: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            comment: string;
                            rid: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room.closeByUser": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close a livechat room (agent) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment?: string;
                        forceClose?: unknown;
                        generateTranscriptPdf?: unknown;
                        rid: string;
                        tags?: string[];
                        transcriptEmail?: {
                            requestData?: {
                                email: string;
                                subject: string;
                            };
                            sendToVisitor: boolean;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            transcript?: {
                                _id: string;
                                status: string;
                                to: string[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room.forward": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Transfer a livechat room to a department or an agent (agent side) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        clientAction?: boolean;
                        comment?: string;
                        departmentId?: string;
                        roomId: string;
                        userId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room.note": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A private note in a livechat room: agents allowed in the room read it, no visitor ever does (DESK D6) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        msg: string;
                        rid: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attachments?: {
                                    audio_size?: number;
                                    audio_type?: string;
                                    audio_url?: string;
                                    description?: string;
                                    format?: string;
                                    image_dimensions?: {
                                        height: number;
                                        width: number;
                                    };
                                    image_size?: number;
                                    image_type?: string;
                                    image_url?: string;
                                    size?: number;
                                    title: string;
                                    title_link: string;
                                    title_link_download: boolean;
                                    /** @enum {string} */
                                    type: "file";
                                    video_size?: number;
                                    video_type?: string;
                                    video_url?: string;
                                }[];
                                comment?: string;
                                file?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                };
                                files?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                }[];
                                groupable?: boolean;
                                internal?: boolean;
                                msg: string;
                                navigation?: {
                                    page: {
                                        change: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                };
                                rid: string;
                                /** @enum {string} */
                                t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history" | "livechat-note" | "omnichannel_placed_chat_on_hold" | "omnichannel_on_hold_chat_resumed";
                                /** @enum {boolean} */
                                transcriptRequested?: true;
                                transferData?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    /** @enum {string} */
                                    scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                    transferredBy: {
                                        _id: string;
                                        /** @enum {string} */
                                        type: "visitor" | "user";
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u: {
                                    _id: string;
                                    name?: string;
                                    username: string;
                                };
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room.onHold": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Put a livechat room on hold (DESK D3) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        roomId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room.resumeOnHold": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume an on-hold livechat room (DESK D3) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        roomId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room.saveInfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A livechat room's tags and topic and its visitor's details (another agent's room: save-others-livechat-room-info) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        guestData: {
                            _id: string;
                            email?: string;
                            livechatData?: {
                                [key: string]: string | number | boolean;
                            };
                            name?: string;
                            phone?: string;
                        };
                        roomData: {
                            _id: string;
                            livechatData?: {
                                [key: string]: string | number | boolean;
                            };
                            tags?: string[];
                            topic?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room.survey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answer the satisfaction survey (merged into the stored survey) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            value: string;
                        }[];
                        rid: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                [key: string]: string;
                            };
                            rid: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/room.transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Transfer the room to another department (deprecated form) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        department: string;
                        rid: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            room: {
                                _id: string;
                                departmentId?: string;
                                open?: boolean;
                                servedBy?: {
                                    _id: string;
                                    ts: string;
                                    username: string;
                                };
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/rooms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Livechat rooms, filtered (agents never see visitor tokens); without view-livechat-rooms only agents[]=<own id> */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    agents?: string[];
                    departmentId?: string | string[];
                    open?: boolean;
                    roomName?: string;
                    tags?: string[];
                    queued?: boolean;
                    onhold?: boolean;
                    visitorId?: string;
                    text?: string;
                    createdAt?: string;
                    closedAt?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            rooms: {
                                _id?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt?: string;
                                cl?: boolean;
                                /** @enum {string} */
                                closeReason?: "visitor" | "agent" | "abandoned" | "onHoldTimeout" | "queueTimeout";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                closedAt?: string;
                                closedBy?: {
                                    _id: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                closer?: "visitor" | "user";
                                departmentId?: string;
                                fname?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                jitsiTimeout?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                livechatData?: {
                                    [key: string]: string;
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs?: number;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    username: string;
                                };
                                source?: {
                                    /** @enum {string} */
                                    type: "widget" | "api";
                                };
                                surveyFeedback?: {
                                    [key: string]: string;
                                };
                                /** @enum {string} */
                                t?: "l";
                                tags?: string[];
                                timers?: {
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    dueAt: string;
                                    /** @enum {string} */
                                    kind: "autoTransfer" | "onHoldClose" | "inactivity" | "queueTimeout";
                                }[];
                                topic?: string;
                                transferHistory?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    previousDepartment?: string;
                                    scope: string;
                                    transferredBy: {
                                        _id: string;
                                        type: string;
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    type: string;
                                }[];
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts?: string;
                                usersCount?: number;
                                v?: {
                                    _id: string;
                                    /** @enum {string} */
                                    status: "online" | "away" | "busy" | "offline";
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tags of no department plus the department's (default the caller's); viewAll with manage-livechat-tags: all */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    text?: string;
                    department?: string;
                    viewAll?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            tags: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                departments: string[];
                                description: string;
                                name: string;
                                numDepartments: number;
                            }[];
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/tags.delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove a tag (rooms keep the names they have) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/tags.remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove a tag (rooms keep the names they have) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/tags.save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a tag, or replace one (with _id): name, description, departments */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        _id?: string;
                        tagData: {
                            description?: string;
                            name: string;
                        };
                        tagDepartments?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            _id: string;
                            /** @description ISO 8601 UTC timestamp with milliseconds */
                            _updatedAt: string;
                            departments: string[];
                            description: string;
                            name: string;
                            numDepartments: number;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/tags/{tagId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tag's fields; unknown: 404 */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tagId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            _id: string;
                            /** @description ISO 8601 UTC timestamp with milliseconds */
                            _updatedAt: string;
                            departments: string[];
                            description: string;
                            name: string;
                            numDepartments: number;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/transcript": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The visitor asks for its room's transcript by e-mail (answered once the outbox holds it) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        rid: string;
                        subject?: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/transcript/{rid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The room's pending transcript request and its transcript mails */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            mailConfigured: boolean;
                            /** @enum {boolean} */
                            success: true;
                            transcriptRequest: {
                                email: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                requestedAt: string;
                                requestedBy: {
                                    _id: string;
                                    username: string;
                                };
                                subject: string;
                            } | null;
                            transcripts: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attempts: number;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                from: string;
                                /** @enum {string} */
                                kind: "offline-message" | "offline-reply" | "transcript" | "test" | "rating";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastAttemptAt?: string;
                                lastError?: string;
                                messageId: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                nextAttemptAt?: string;
                                offlineMessageId?: string;
                                replyTo?: string;
                                requestedBy: {
                                    _id?: string;
                                    /** @enum {string} */
                                    type: "visitor" | "user" | "system";
                                    username?: string;
                                };
                                rid?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                sentAt?: string;
                                /** @enum {string} */
                                status: "queued" | "sent" | "failed" | "unsent-no-smtp";
                                subject: string;
                                to: string[];
                                visitorId?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Request the room's transcript by e-mail when it closes */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        subject: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Withdraw the room's transcript request */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Widget triggers, by name */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                            triggers: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                actions: {
                                    name: string;
                                    params?: {
                                        [key: string]: string;
                                    };
                                }[];
                                conditions: {
                                    name: string;
                                    value: string | null;
                                }[];
                                description: string;
                                enabled: boolean;
                                name: string;
                                runOnce: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a trigger, or replace one (with _id); answers the saved trigger */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        _id?: string;
                        actions: {
                            /** @enum {string} */
                            name: "send-message" | "use-external-service";
                            params?: {
                                [key: string]: string | number | boolean;
                            };
                        }[];
                        conditions: {
                            /** @enum {string} */
                            name: "time-on-site" | "page-url" | "chat-opened-by-visitor" | "after-guest-registration";
                            value?: string | number | null;
                        }[];
                        description?: string;
                        enabled?: boolean;
                        name: string;
                        runOnce?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            trigger: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                actions: {
                                    name: string;
                                    params?: {
                                        [key: string]: string;
                                    };
                                }[];
                                conditions: {
                                    name: string;
                                    value: string | null;
                                }[];
                                description: string;
                                enabled: boolean;
                                name: string;
                                runOnce: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/triggers/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A trigger, or null */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            trigger: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                actions: {
                                    name: string;
                                    params?: {
                                        [key: string]: string;
                                    };
                                }[];
                                conditions: {
                                    name: string;
                                    value: string | null;
                                }[];
                                description: string;
                                enabled: boolean;
                                name: string;
                                runOnce: boolean;
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a trigger (unknown: success too) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/upload/{rid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A visitor's file (multipart `file`, optional `msg`, `description`; header x-visitor-token) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            _id: string;
                            /** @description ISO 8601 UTC timestamp with milliseconds */
                            _updatedAt: string;
                            attachments?: {
                                audio_size?: number;
                                audio_type?: string;
                                audio_url?: string;
                                description?: string;
                                format?: string;
                                image_dimensions?: {
                                    height: number;
                                    width: number;
                                };
                                image_size?: number;
                                image_type?: string;
                                image_url?: string;
                                size?: number;
                                title: string;
                                title_link: string;
                                title_link_download: boolean;
                                /** @enum {string} */
                                type: "file";
                                video_size?: number;
                                video_type?: string;
                                video_url?: string;
                            }[];
                            file?: {
                                _id: string;
                                format: string;
                                name: string;
                                size: number;
                                type: string;
                            };
                            fileUpload?: {
                                publicFilePath: string;
                                size: number;
                                type: string;
                            };
                            files?: {
                                _id: string;
                                format: string;
                                name: string;
                                size: number;
                                type: string;
                            }[];
                            groupable?: boolean;
                            msg: string;
                            navigation?: {
                                page: {
                                    change: string;
                                    location: {
                                        href: string;
                                    };
                                    title: string;
                                };
                            };
                            newRoom: boolean;
                            rid: string;
                            showConnecting: boolean;
                            /** @enum {boolean} */
                            success: true;
                            /** @enum {string} */
                            t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                            token?: string;
                            /** @enum {boolean} */
                            transcriptRequested?: true;
                            transferData?: {
                                comment?: string;
                                nextDepartment?: {
                                    _id: string;
                                    name: string;
                                };
                                /** @enum {string} */
                                scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                transferredBy: {
                                    _id: string;
                                    /** @enum {string} */
                                    type: "visitor" | "user";
                                    username: string;
                                };
                                transferredTo?: {
                                    _id: string;
                                    username: string;
                                };
                            };
                            /** @description ISO 8601 UTC timestamp with milliseconds */
                            ts: string;
                            u: {
                                _id: string;
                                name?: string;
                                username: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/users/agent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users with the livechat-agent role */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                            users: {
                                _id: string;
                                livechat?: {
                                    maxNumberSimultaneousChat: number;
                                };
                                name?: string;
                                status: string;
                                statusLivechat?: string;
                                username: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Give a user the livechat-agent role */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        username: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                username: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/users/agent/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove the livechat-agent role */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/users/manager": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users with the livechat-manager role */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                            users: {
                                _id: string;
                                livechat?: {
                                    maxNumberSimultaneousChat: number;
                                };
                                name?: string;
                                status: string;
                                statusLivechat?: string;
                                username: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Give a user the livechat-manager role */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        username: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                username: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/users/manager/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove the livechat-manager role */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/users/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Unknown livechat user type */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    type: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Unknown livechat user type */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    type: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register or update a visitor (upsert by token) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        visitor: {
                            customFields?: {
                                key: string;
                                overwrite?: boolean;
                                value: string;
                            }[];
                            department?: string;
                            email?: string;
                            name?: string;
                            phone?: string;
                            token: string;
                            username?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            visitor: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                department?: string;
                                livechatData: {
                                    [key: string]: string;
                                };
                                name?: string;
                                phone?: {
                                    phoneNumber: string;
                                }[];
                                /** @enum {string} */
                                status: "online" | "away" | "busy" | "offline";
                                token: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                username: string;
                                visitorEmails?: {
                                    address: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitor.status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sets the visitor's status (widget) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "online" | "away" | "busy" | "offline";
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                            /** @enum {boolean} */
                            success: true;
                            token: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitor/department.transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Transfer the room to another department */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        department: string;
                        rid: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitor/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The visitor of a token */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            visitor: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                department?: string;
                                livechatData: {
                                    [key: string]: string;
                                };
                                name?: string;
                                phone?: {
                                    phoneNumber: string;
                                }[];
                                /** @enum {string} */
                                status: "online" | "away" | "busy" | "offline";
                                token: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                username: string;
                                visitorEmails?: {
                                    address: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Remove every trace of the token's visitor (an open room is closed first, W8) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            visitor: {
                                _id: string | null;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitors.autocomplete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The first ten visitors the caller sees whose name contains the term (DESK D7) */
        get: {
            parameters: {
                query: {
                    selector: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                _id: string;
                                name?: string;
                                username: string;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitors.chatHistory/room/{roomId}/visitor/{visitorId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A visitor's chats, open and closed, newest first (DESK D7) */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                };
                header?: never;
                path: {
                    roomId: string;
                    visitorId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            history: {
                                _id?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt?: string;
                                cl?: boolean;
                                /** @enum {string} */
                                closeReason?: "visitor" | "agent" | "abandoned" | "onHoldTimeout" | "queueTimeout";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                closedAt?: string;
                                closedBy?: {
                                    _id: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                closer?: "visitor" | "user";
                                departmentId?: string;
                                fname?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                jitsiTimeout?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                livechatData?: {
                                    [key: string]: string;
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs?: number;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    username: string;
                                };
                                source?: {
                                    /** @enum {string} */
                                    type: "widget" | "api";
                                };
                                surveyFeedback?: {
                                    [key: string]: string;
                                };
                                /** @enum {string} */
                                t?: "l";
                                tags?: string[];
                                timers?: {
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    dueAt: string;
                                    /** @enum {string} */
                                    kind: "autoTransfer" | "onHoldClose" | "inactivity" | "queueTimeout";
                                }[];
                                topic?: string;
                                transferHistory?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    previousDepartment?: string;
                                    scope: string;
                                    transferredBy: {
                                        _id: string;
                                        type: string;
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    type: string;
                                }[];
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts?: string;
                                usersCount?: number;
                                v?: {
                                    _id: string;
                                    /** @enum {string} */
                                    status: "online" | "away" | "busy" | "offline";
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            }[];
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitors.info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A visitor the caller sees (without token), with custom fields, last page, latest chat and agent (DESK D7) */
        get: {
            parameters: {
                query: {
                    visitorId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            visitor: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                department?: string;
                                lastAgent?: {
                                    agentId: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    username: string;
                                };
                                lastChat?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                };
                                lastPage?: {
                                    href: string;
                                    title: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                };
                                livechatData: {
                                    [key: string]: string;
                                };
                                name?: string;
                                phone?: {
                                    phoneNumber: string;
                                }[];
                                /** @enum {string} */
                                status: "online" | "away" | "busy" | "offline";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                username: string;
                                visitorEmails?: {
                                    address: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitors.pagesVisited/{roomId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The pages the room's visitor visited, newest first (no token) */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                };
                header?: never;
                path: {
                    roomId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            pages: {
                                _id: string;
                                change: string;
                                href: string;
                                msg: string;
                                navigation: {
                                    page: {
                                        change: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                };
                                rid: string | null;
                                title: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitors.remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove every trace of a visitor (an open room is closed first) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        visitorId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            visitor: {
                                _id: string | null;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/visitors.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Visitors the caller sees whose name, username, e-mail or phone contains the term (DESK D7) */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    term?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                            visitors: {
                                _id: string;
                                lastChat?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                };
                                livechatData: {
                                    [key: string]: string;
                                };
                                name?: string;
                                phone?: {
                                    phoneNumber: string;
                                }[];
                                username: string;
                                visitorEmails?: {
                                    address: string;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/webhook.deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The webhook delivery log, newest first */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    status?: "pending" | "retrying" | "delivered" | "failed";
                    type?: string;
                    rid?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            deliveries: {
                                _id: string;
                                attempts: number;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                deliveredAt: string | null;
                                /** @description the same across retries and redeliveries (X-Parley-Event-Id) */
                                eventId: string;
                                lastDurationMs: number | null;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                nextAttemptAt: string | null;
                                rid: string | null;
                                /** @enum {string} */
                                status: "pending" | "retrying" | "delivered" | "failed";
                                type: string;
                                url: string;
                            }[];
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/webhook.deliveries/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook delivery with its payload and attempts */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery: {
                                _id: string;
                                attempts: number;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                deliveredAt: string | null;
                                /** @description the same across retries and redeliveries (X-Parley-Event-Id) */
                                eventId: string;
                                lastDurationMs: number | null;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                log: {
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    at: string;
                                    durationMs: number;
                                    error: string | null;
                                    statusCode: number | null;
                                }[];
                                nextAttemptAt: string | null;
                                /** @description the JSON body as sent */
                                payload: unknown;
                                rid: string | null;
                                /** @enum {string} */
                                status: "pending" | "retrying" | "delivered" | "failed";
                                type: string;
                                url: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/webhook.redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivered or failed webhook event again (same event id) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        _id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery: {
                                _id: string;
                                attempts: number;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                deliveredAt: string | null;
                                /** @description the same across retries and redeliveries (X-Parley-Event-Id) */
                                eventId: string;
                                lastDurationMs: number | null;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                log: {
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    at: string;
                                    durationMs: number;
                                    error: string | null;
                                    statusCode: number | null;
                                }[];
                                nextAttemptAt: string | null;
                                /** @description the JSON body as sent */
                                payload: unknown;
                                rid: string | null;
                                /** @enum {string} */
                                status: "pending" | "retrying" | "delivered" | "failed";
                                type: string;
                                url: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send Rocket.Chat's sample session to the webhook now */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/livechat/{rid}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A livechat room's messages, newest first (system messages included) */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    searchTerm?: string;
                };
                header?: never;
                path: {
                    rid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            messages: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attachments?: {
                                    audio_size?: number;
                                    audio_type?: string;
                                    audio_url?: string;
                                    description?: string;
                                    format?: string;
                                    image_dimensions?: {
                                        height: number;
                                        width: number;
                                    };
                                    image_size?: number;
                                    image_type?: string;
                                    image_url?: string;
                                    size?: number;
                                    title: string;
                                    title_link: string;
                                    title_link_download: boolean;
                                    /** @enum {string} */
                                    type: "file";
                                    video_size?: number;
                                    video_type?: string;
                                    video_url?: string;
                                }[];
                                comment?: string;
                                file?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                };
                                files?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                }[];
                                groupable?: boolean;
                                internal?: boolean;
                                msg: string;
                                navigation?: {
                                    page: {
                                        change: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                };
                                rid: string;
                                /** @enum {string} */
                                t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history" | "livechat-note" | "omnichannel_placed_chat_on_hold" | "omnichannel_on_hold_chat_resumed";
                                /** @enum {boolean} */
                                transcriptRequested?: true;
                                transferData?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    /** @enum {string} */
                                    scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                    transferredBy: {
                                        _id: string;
                                        /** @enum {string} */
                                        type: "visitor" | "user";
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u: {
                                    _id: string;
                                    name?: string;
                                    username: string;
                                };
                            }[];
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in with a password (plain or SHA-256 digest) or resume a token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email?: string;
                        password?: string | {
                            algorithm: string;
                            digest: string;
                        };
                        resume?: string;
                        user?: string;
                        username?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                authToken: string;
                                me: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    active: boolean;
                                    avatarUrl?: string;
                                    bio?: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    createdAt: string;
                                    customFields?: {
                                        [key: string]: string;
                                    };
                                    email?: string;
                                    emails: {
                                        address: string;
                                        verified: boolean;
                                    }[];
                                    isOAuthUser: boolean;
                                    language?: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    lastLogin?: string;
                                    name?: string;
                                    nickname?: string;
                                    roles: string[];
                                    services: {
                                        password: {
                                            exists: boolean;
                                        };
                                    };
                                    settings: {
                                        preferences: {
                                            [key: string]: unknown;
                                        };
                                        profile: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @enum {string} */
                                    status: "online" | "away" | "busy" | "offline";
                                    statusConnection?: string;
                                    statusLivechat?: string;
                                    statusText?: string;
                                    type: string;
                                    username?: string;
                                    utcOffset?: number;
                                };
                                userId: string;
                            };
                            /** @enum {string} */
                            status: "success";
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the token used for this request */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                message: string;
                            };
                            /** @enum {string} */
                            status: "success";
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            _id: string;
                            /** @description ISO 8601 UTC timestamp with milliseconds */
                            _updatedAt: string;
                            active: boolean;
                            avatarUrl?: string;
                            bio?: string;
                            /** @description ISO 8601 UTC timestamp with milliseconds */
                            createdAt: string;
                            customFields?: {
                                [key: string]: string;
                            };
                            email?: string;
                            emails: {
                                address: string;
                                verified: boolean;
                            }[];
                            isOAuthUser: boolean;
                            language?: string;
                            /** @description ISO 8601 UTC timestamp with milliseconds */
                            lastLogin?: string;
                            name?: string;
                            nickname?: string;
                            roles: string[];
                            services: {
                                password: {
                                    exists: boolean;
                                };
                            };
                            settings: {
                                preferences: {
                                    [key: string]: unknown;
                                };
                                profile: {
                                    [key: string]: unknown;
                                };
                            };
                            /** @enum {string} */
                            status: "online" | "away" | "busy" | "offline";
                            statusConnection?: string;
                            statusLivechat?: string;
                            statusText?: string;
                            /** @enum {boolean} */
                            success: true;
                            type: string;
                            username?: string;
                            utcOffset?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/omnichannel/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Write the webhook settings (each key given, false included) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        LivechatHttpTimeout?: number;
                        LivechatSecretToken?: string;
                        LivechatWebhookOnAgentMessage?: boolean;
                        LivechatWebhookOnChatQueued?: boolean;
                        LivechatWebhookOnChatTaken?: boolean;
                        LivechatWebhookOnClose?: boolean;
                        LivechatWebhookOnForward?: boolean;
                        LivechatWebhookOnOfflineMsg?: boolean;
                        LivechatWebhookOnStart?: boolean;
                        LivechatWebhookOnVisitorMessage?: boolean;
                        LivechatWebhookUrl?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/permissions.listAll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All permissions with their roles (or those changed after updatedSince) */
        get: {
            parameters: {
                query?: {
                    updatedSince?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            remove: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                roles: string[];
                            }[];
                            /** @enum {boolean} */
                            success: true;
                            update: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                roles: string[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/permissions.update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the role lists of permissions (all or nothing) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        permissions: {
                            _id: string;
                            roles: string[];
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            permissions: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                roles: string[];
                            }[];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rooms.get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's rooms; with updatedSince, the changes since then (update/remove)
         * @description Sync rule: pass as updatedSince a time no later than the start of the previous rooms.get by the server clock (e.g. that time minus 1 ms); overlapping windows only repeat entries. Apply remove, then update.
         */
        get: {
            parameters: {
                query?: {
                    updatedSince?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            remove: {
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _deletedAt: string;
                                _id: string;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                            update: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                archived?: boolean;
                                customFields?: {
                                    [key: string]: unknown;
                                };
                                default?: boolean;
                                departmentId?: string;
                                description?: string;
                                /** @enum {boolean} */
                                featured?: true;
                                fname?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                name?: string;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                ro?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts?: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                t: "c" | "p" | "d" | "l";
                                topic?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u?: {
                                    _id: string;
                                    username: string;
                                };
                                usersCount: number;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rooms.info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Any room the caller may read (a livechat room with all its livechat fields) */
        get: {
            parameters: {
                query?: {
                    roomId?: string;
                    roomName?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            room: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                cl: boolean;
                                /** @enum {string} */
                                closeReason?: "visitor" | "agent" | "abandoned" | "onHoldTimeout" | "queueTimeout";
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                closedAt?: string;
                                closedBy?: {
                                    _id: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                closer?: "visitor" | "user";
                                departmentId?: string;
                                fname?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                jitsiTimeout?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                livechatData?: {
                                    [key: string]: string;
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    username: string;
                                };
                                source: {
                                    /** @enum {string} */
                                    type: "widget" | "api";
                                };
                                surveyFeedback?: {
                                    [key: string]: string;
                                };
                                /** @enum {string} */
                                t: "l";
                                tags?: string[];
                                timers?: {
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    dueAt: string;
                                    /** @enum {string} */
                                    kind: "autoTransfer" | "onHoldClose" | "inactivity" | "queueTimeout";
                                }[];
                                topic?: string;
                                transferHistory?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    previousDepartment?: string;
                                    scope: string;
                                    transferredBy: {
                                        _id: string;
                                        type: string;
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    type: string;
                                }[];
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                usersCount: number;
                                v: {
                                    _id: string;
                                    /** @enum {string} */
                                    status: "online" | "away" | "busy" | "offline";
                                    username: string;
                                };
                                waitingResponse: boolean;
                            } | {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                archived?: boolean;
                                customFields?: {
                                    [key: string]: unknown;
                                };
                                default?: boolean;
                                departmentId?: string;
                                description?: string;
                                /** @enum {boolean} */
                                featured?: true;
                                fname?: string;
                                lastMessage?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    _updatedAt: string;
                                    attachments?: {
                                        audio_size?: number;
                                        audio_type?: string;
                                        audio_url?: string;
                                        description?: string;
                                        format?: string;
                                        image_dimensions?: {
                                            height: number;
                                            width: number;
                                        };
                                        image_size?: number;
                                        image_type?: string;
                                        image_url?: string;
                                        size?: number;
                                        title: string;
                                        title_link: string;
                                        title_link_download: boolean;
                                        /** @enum {string} */
                                        type: "file";
                                        video_size?: number;
                                        video_type?: string;
                                        video_url?: string;
                                    }[];
                                    file?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    };
                                    files?: {
                                        _id: string;
                                        format: string;
                                        name: string;
                                        size: number;
                                        type: string;
                                    }[];
                                    groupable?: boolean;
                                    msg: string;
                                    navigation?: {
                                        page: {
                                            change: string;
                                            location: {
                                                href: string;
                                            };
                                            title: string;
                                        };
                                    };
                                    rid: string;
                                    /** @enum {string} */
                                    t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                    /** @enum {boolean} */
                                    transcriptRequested?: true;
                                    transferData?: {
                                        comment?: string;
                                        nextDepartment?: {
                                            _id: string;
                                            name: string;
                                        };
                                        /** @enum {string} */
                                        scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                        transferredBy: {
                                            _id: string;
                                            /** @enum {string} */
                                            type: "visitor" | "user";
                                            username: string;
                                        };
                                        transferredTo?: {
                                            _id: string;
                                            username: string;
                                        };
                                    };
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts: string;
                                    u: {
                                        _id: string;
                                        name?: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lm?: string;
                                msgs: number;
                                name?: string;
                                /** @enum {boolean} */
                                onHold?: true;
                                open?: boolean;
                                ro?: boolean;
                                servedBy?: {
                                    _id: string;
                                    /** @description ISO 8601 UTC timestamp with milliseconds */
                                    ts?: string;
                                    username: string;
                                };
                                /** @enum {string} */
                                t: "c" | "p" | "d" | "l";
                                topic?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u?: {
                                    _id: string;
                                    username: string;
                                };
                                usersCount: number;
                                v?: {
                                    _id: string;
                                    status: string;
                                    username: string;
                                };
                                waitingResponse?: boolean;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rooms.media/{rid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload a file to confirm later with rooms.mediaConfirm (multipart `file`) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            file: {
                                _id: string;
                                url: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rooms.mediaConfirm/{rid}/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the message of a file uploaded with rooms.media */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                    fileId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        msg?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attachments?: {
                                    audio_size?: number;
                                    audio_type?: string;
                                    audio_url?: string;
                                    description?: string;
                                    format?: string;
                                    image_dimensions?: {
                                        height: number;
                                        width: number;
                                    };
                                    image_size?: number;
                                    image_type?: string;
                                    image_url?: string;
                                    size?: number;
                                    title: string;
                                    title_link: string;
                                    title_link_download: boolean;
                                    /** @enum {string} */
                                    type: "file";
                                    video_size?: number;
                                    video_type?: string;
                                    video_url?: string;
                                }[];
                                file?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                };
                                files?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                }[];
                                groupable?: boolean;
                                msg: string;
                                navigation?: {
                                    page: {
                                        change: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                };
                                rid: string;
                                /** @enum {string} */
                                t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                /** @enum {boolean} */
                                transcriptRequested?: true;
                                transferData?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    /** @enum {string} */
                                    scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                    transferredBy: {
                                        _id: string;
                                        /** @enum {string} */
                                        type: "visitor" | "user";
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u: {
                                    _id: string;
                                    name?: string;
                                    username: string;
                                };
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rooms.upload/{rid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload a file and send its message (multipart `file`, optional `msg`, `description`) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                attachments?: {
                                    audio_size?: number;
                                    audio_type?: string;
                                    audio_url?: string;
                                    description?: string;
                                    format?: string;
                                    image_dimensions?: {
                                        height: number;
                                        width: number;
                                    };
                                    image_size?: number;
                                    image_type?: string;
                                    image_url?: string;
                                    size?: number;
                                    title: string;
                                    title_link: string;
                                    title_link_download: boolean;
                                    /** @enum {string} */
                                    type: "file";
                                    video_size?: number;
                                    video_type?: string;
                                    video_url?: string;
                                }[];
                                file?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                };
                                files?: {
                                    _id: string;
                                    format: string;
                                    name: string;
                                    size: number;
                                    type: string;
                                }[];
                                groupable?: boolean;
                                msg: string;
                                navigation?: {
                                    page: {
                                        change: string;
                                        location: {
                                            href: string;
                                        };
                                        title: string;
                                    };
                                };
                                rid: string;
                                /** @enum {string} */
                                t?: "livechat-started" | "livechat-close" | "livechat_transfer_history" | "livechat_navigation_history";
                                /** @enum {boolean} */
                                transcriptRequested?: true;
                                transferData?: {
                                    comment?: string;
                                    nextDepartment?: {
                                        _id: string;
                                        name: string;
                                    };
                                    /** @enum {string} */
                                    scope: "department" | "agent" | "queue" | "autoTransferUnansweredChatsToAgent" | "autoTransferUnansweredChatsToQueue";
                                    transferredBy: {
                                        _id: string;
                                        /** @enum {string} */
                                        type: "visitor" | "user";
                                        username: string;
                                    };
                                    transferredTo?: {
                                        _id: string;
                                        username: string;
                                    };
                                };
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u: {
                                    _id: string;
                                    name?: string;
                                    username: string;
                                };
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/{_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a setting */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            _id: string;
                            /** @description secrets only: whether a value is stored (the value is never returned) */
                            isSet?: boolean;
                            /** @enum {boolean} */
                            success: true;
                            value: unknown;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Change a setting (takes effect at once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    _id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description any JSON value; strings and keys without NUL */
                        value: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions.getOne": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's subscription to a room */
        get: {
            parameters: {
                query: {
                    roomId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            subscription: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                alert: boolean;
                                fname?: string;
                                name?: string;
                                /** @enum {boolean} */
                                onHold?: true;
                                open: boolean;
                                rid: string;
                                roles?: string[];
                                t: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                ts: string;
                                u: {
                                    _id: string;
                                    username: string;
                                };
                                unread: number;
                            } | null;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user.updateOwnBasicInfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Alias of users.updateOwnBasicInfo
         * @deprecated
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        customFields?: {
                            [key: string]: string | null;
                        };
                        data: {
                            bio?: string;
                            currentPassword?: string;
                            customFields?: {
                                [key: string]: string | null;
                            };
                            email?: string;
                            name?: string;
                            newPassword?: string;
                            nickname?: string;
                            statusText?: string;
                            /** @enum {string} */
                            statusType?: "online" | "away" | "busy" | "offline";
                            username?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                active: boolean;
                                avatarUrl?: string;
                                bio?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                customFields?: {
                                    [key: string]: string;
                                };
                                emails: {
                                    address: string;
                                    verified: boolean;
                                }[];
                                language?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastLogin?: string;
                                name?: string;
                                nickname?: string;
                                roles: string[];
                                services: {
                                    password: {
                                        exists: boolean;
                                    };
                                };
                                settings: {
                                    preferences: {
                                        [key: string]: unknown;
                                    };
                                    profile: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @enum {string} */
                                status: "online" | "away" | "busy" | "offline";
                                statusConnection?: string;
                                statusLivechat?: string;
                                statusText?: string;
                                type: string;
                                username?: string;
                                utcOffset?: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a user (create-user) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        bio?: string;
                        customFields?: {
                            [key: string]: string;
                        };
                        email: string;
                        joinDefaultChannels?: boolean;
                        name: string;
                        nickname?: string;
                        password: string;
                        requirePasswordChange?: boolean;
                        roles?: string[];
                        sendWelcomeEmail?: boolean;
                        setRandomPassword?: boolean;
                        username: string;
                        verified?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                active: boolean;
                                avatarUrl?: string;
                                bio?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                customFields?: {
                                    [key: string]: string;
                                };
                                emails: {
                                    address: string;
                                    verified: boolean;
                                }[];
                                language?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastLogin?: string;
                                name?: string;
                                nickname?: string;
                                roles: string[];
                                services: {
                                    password: {
                                        exists: boolean;
                                    };
                                };
                                settings: {
                                    preferences: {
                                        [key: string]: unknown;
                                    };
                                    profile: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @enum {string} */
                                status: "online" | "away" | "busy" | "offline";
                                statusConnection?: string;
                                statusLivechat?: string;
                                statusText?: string;
                                type: string;
                                username?: string;
                                utcOffset?: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete a user with its tokens and subscriptions (delete-user) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        confirmRelinquish?: boolean;
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.getPreferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's stored preferences */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            preferences: {
                                [key: string]: unknown;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user by id or username */
        get: {
            parameters: {
                query?: {
                    userId?: string;
                    username?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                active: boolean;
                                avatarUrl?: string;
                                bio?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                customFields?: {
                                    [key: string]: string;
                                };
                                emails?: {
                                    address: string;
                                    verified: boolean;
                                }[];
                                language?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastLogin?: string;
                                name?: string;
                                nickname?: string;
                                roles?: string[];
                                services?: {
                                    password: {
                                        exists: boolean;
                                    };
                                };
                                settings?: {
                                    preferences: {
                                        [key: string]: unknown;
                                    };
                                    profile: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @enum {string} */
                                status: "online" | "away" | "busy" | "offline";
                                statusConnection?: string;
                                statusLivechat?: string;
                                statusText?: string;
                                type: string;
                                username?: string;
                                utcOffset?: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every user, a page at a time (view-d-room); e-mails and roles with view-full-other-user-info */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    count?: number;
                    /** @description JSON object, one key, value 1 or -1 */
                    sort?: string;
                    /** @description JSON object of 0/1 values */
                    fields?: string;
                    query?: string;
                    text?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            offset: number;
                            /** @enum {boolean} */
                            success: true;
                            total: number;
                            users: {
                                _id?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt?: string;
                                active?: boolean;
                                avatarUrl?: string;
                                bio?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt?: string;
                                customFields?: {
                                    [key: string]: string;
                                };
                                emails?: {
                                    address: string;
                                    verified: boolean;
                                }[];
                                language?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastLogin?: string;
                                name?: string;
                                nickname?: string;
                                roles?: string[];
                                services?: {
                                    password: {
                                        exists: boolean;
                                    };
                                };
                                settings?: {
                                    preferences: {
                                        [key: string]: unknown;
                                    };
                                    profile: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @enum {string} */
                                status?: "online" | "away" | "busy" | "offline";
                                statusConnection?: string;
                                statusLivechat?: string;
                                statusText?: string;
                                type?: string;
                                username?: string;
                                utcOffset?: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Self-registration (no auth; rate-limited per IP) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        name?: string;
                        pass: string;
                        secretURL?: string;
                        username: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                active: boolean;
                                name?: string;
                                status: string;
                                type: string;
                                username?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.setActiveStatus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate or deactivate a user (edit-other-user-active-status); deactivating logs it out everywhere */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        activeStatus: boolean;
                        confirmRelinquish?: boolean;
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                active: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.setPreferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Merge preferences (null removes a key) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        data: {
                            alsoSendThreadToChannel?: string | null;
                            autoImageLoad?: boolean | null;
                            clockMode?: number | null;
                            collapseMediaByDefault?: boolean | null;
                            convertAsciiEmoji?: boolean | null;
                            desktopNotificationDuration?: number | null;
                            desktopNotificationRequireInteraction?: boolean | null;
                            desktopNotificationVoiceCalls?: boolean | null;
                            desktopNotifications?: string | null;
                            displayAvatars?: boolean | null;
                            dontAskAgainList?: {
                                action: string;
                                label: string;
                            }[] | null;
                            emailNotificationMode?: string | null;
                            enableAutoAway?: boolean | null;
                            enableMobileRinging?: boolean | null;
                            featuresPreview?: {
                                name: string;
                                value: boolean;
                            }[] | null;
                            fontSize?: string | null;
                            groupByType?: boolean | null;
                            hideAvatars?: boolean | null;
                            hideFlexTab?: boolean | null;
                            hideRoles?: boolean | null;
                            hideUsernames?: boolean | null;
                            highlights?: string[] | null;
                            idleTimeLimit?: number | null;
                            language?: string | null;
                            masterVolume?: number | null;
                            mentionsWithSymbol?: boolean | null;
                            messageViewMode?: number | null;
                            mobileNotifications?: string | null;
                            muteFocusedConversations?: boolean | null;
                            newMessageNotification?: string | null;
                            newRoomNotification?: string | null;
                            notificationsSoundVolume?: number | null;
                            notifyCalendarEvents?: boolean | null;
                            omnichannelHideConversationAfterClosing?: boolean | null;
                            omnichannelTranscriptEmail?: boolean | null;
                            omnichannelTranscriptPDF?: boolean | null;
                            pushNotifications?: string | null;
                            receiveLoginDetectionEmail?: boolean | null;
                            roomCounterSidebar?: boolean | null;
                            roomsListExhibitionMode?: string | null;
                            saveMobileBandwidth?: boolean | null;
                            sendOnEnter?: string | null;
                            showThreadsInMainChannel?: boolean | null;
                            sidebarDisplayAvatar?: boolean | null;
                            sidebarGroupByType?: boolean | null;
                            sidebarHideAvatar?: boolean | null;
                            sidebarShowFavorites?: boolean | null;
                            sidebarShowUnread?: boolean | null;
                            sidebarSortby?: string | null;
                            sidebarViewMode?: string | null;
                            statusVisibilityDenied?: string[] | null;
                            themeAppearence?: string | null;
                            unreadAlert?: boolean | null;
                            useEmojis?: boolean | null;
                            utcOffset?: number | null;
                            viewMode?: number | null;
                            voipRingerVolume?: number | null;
                        };
                        userId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                settings: {
                                    preferences: {
                                        [key: string]: unknown;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.setStatus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set presence status and status message */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message?: string;
                        /** @enum {string} */
                        status?: "online" | "away" | "busy" | "offline";
                        userId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Edit another user (edit-other-user-info): profile, e-mail, password, roles, active; all or nothing */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        confirmRelinquish?: boolean;
                        data: {
                            active?: boolean;
                            bio?: string;
                            customFields?: {
                                [key: string]: string | null;
                            };
                            email?: string;
                            joinDefaultChannels?: boolean;
                            name?: string;
                            nickname?: string;
                            password?: string;
                            requirePasswordChange?: boolean;
                            roles?: string[];
                            sendWelcomeEmail?: boolean;
                            setRandomPassword?: boolean;
                            statusText?: string;
                            username?: string;
                            verified?: boolean;
                        };
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                active: boolean;
                                avatarUrl?: string;
                                bio?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                customFields?: {
                                    [key: string]: string;
                                };
                                emails: {
                                    address: string;
                                    verified: boolean;
                                }[];
                                language?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastLogin?: string;
                                name?: string;
                                nickname?: string;
                                roles: string[];
                                services: {
                                    password: {
                                        exists: boolean;
                                    };
                                };
                                settings: {
                                    preferences: {
                                        [key: string]: unknown;
                                    };
                                    profile: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @enum {string} */
                                status: "online" | "away" | "busy" | "offline";
                                statusConnection?: string;
                                statusLivechat?: string;
                                statusText?: string;
                                type: string;
                                username?: string;
                                utcOffset?: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users.updateOwnBasicInfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Update own profile (all or nothing) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        customFields?: {
                            [key: string]: string | null;
                        };
                        data: {
                            bio?: string;
                            currentPassword?: string;
                            customFields?: {
                                [key: string]: string | null;
                            };
                            email?: string;
                            name?: string;
                            newPassword?: string;
                            nickname?: string;
                            statusText?: string;
                            /** @enum {string} */
                            statusType?: "online" | "away" | "busy" | "offline";
                            username?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            user: {
                                _id: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                _updatedAt: string;
                                active: boolean;
                                avatarUrl?: string;
                                bio?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                createdAt: string;
                                customFields?: {
                                    [key: string]: string;
                                };
                                emails: {
                                    address: string;
                                    verified: boolean;
                                }[];
                                language?: string;
                                /** @description ISO 8601 UTC timestamp with milliseconds */
                                lastLogin?: string;
                                name?: string;
                                nickname?: string;
                                roles: string[];
                                services: {
                                    password: {
                                        exists: boolean;
                                    };
                                };
                                settings: {
                                    preferences: {
                                        [key: string]: unknown;
                                    };
                                    profile: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @enum {string} */
                                status: "online" | "away" | "busy" | "offline";
                                statusConnection?: string;
                                statusLivechat?: string;
                                statusText?: string;
                                type: string;
                                username?: string;
                                utcOffset?: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/avatar/{username}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's or visitor's avatar (SVG initials) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    username: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/file-upload/{id}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A stored file (Range requests; `?download` for an attachment) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/livechat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The livechat widget page (R6) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/livez": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: 200 while the process runs */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (text exposition format) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rating/{rid}/{secret}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The rating page mailed after a close (HTML) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                    secret: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** Answer the rating page (an HTML form post; answers once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rid: string;
                    secret: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment?: string;
                        rating?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: 200 only when the database answers, else 503 */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "unavailable";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sounds/chime.mp3": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The widget's notification sound (W10) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorBody: {
            details?: unknown;
            error: string;
            errorType?: string;
            message?: string;
            /** @enum {string} */
            status?: "error";
            /** @enum {boolean} */
            success: false;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
