extension Storefront {
    /// One row of ISO 3166-1: alpha-2, alpha-3, the storefront's primary language tag (nil when Apple runs no
    /// App Store storefront there) and the English short name.
    struct Entry: Sendable {
        let alpha2: String
        let alpha3: String
        let language: String?
        let name: String
    }

    /// The full ISO 3166-1 table, parsed once. Codes outside it and codes without a storefront are both rejected,
    /// but the table keeps non-storefront countries so the error can say "not an App Store storefront" rather
    /// than "unknown code" — the operator learns which mistake they made.
    static let table: [Entry] = isoTable.split(separator: "\n").map { line in
        let fields = line.split(separator: " ", maxSplits: 3)
        return Entry(
            alpha2: String(fields[0]).lowercased(),
            alpha3: String(fields[1]),
            language: fields[2] == "-" ? nil : String(fields[2]),
            name: String(fields[3])
        )
    }

    /// Lookup by lowercase alpha-2 and lowercase alpha-3.
    static let index: [String: Entry] = {
        var index: [String: Entry] = [:]
        for entry in table {
            index[entry.alpha2] = entry
            index[entry.alpha3.lowercased()] = entry
        }
        return index
    }()

    // alpha-2, alpha-3, primary language of the App Store storefront ("-" = no storefront), English name.
    private static let isoTable = """
        AD AND - Andorra
        AE ARE ar United Arab Emirates
        AF AFG - Afghanistan
        AG ATG en Antigua and Barbuda
        AI AIA en Anguilla
        AL ALB sq Albania
        AM ARM hy Armenia
        AO AGO pt Angola
        AQ ATA - Antarctica
        AR ARG es Argentina
        AS ASM - American Samoa
        AT AUT de Austria
        AU AUS en Australia
        AW ABW - Aruba
        AX ALA - Åland Islands
        AZ AZE az Azerbaijan
        BA BIH bs Bosnia and Herzegovina
        BB BRB en Barbados
        BD BGD - Bangladesh
        BE BEL nl Belgium
        BF BFA fr Burkina Faso
        BG BGR bg Bulgaria
        BH BHR ar Bahrain
        BI BDI - Burundi
        BJ BEN fr Benin
        BL BLM - Saint Barthélemy
        BM BMU en Bermuda
        BN BRN ms Brunei Darussalam
        BO BOL es Bolivia
        BQ BES - Bonaire, Sint Eustatius and Saba
        BR BRA pt Brazil
        BS BHS en Bahamas
        BT BTN dz Bhutan
        BV BVT - Bouvet Island
        BW BWA en Botswana
        BY BLR be Belarus
        BZ BLZ en Belize
        CA CAN en Canada
        CC CCK - Cocos (Keeling) Islands
        CD COD fr Congo, Democratic Republic of the
        CF CAF - Central African Republic
        CG COG fr Congo
        CH CHE de Switzerland
        CI CIV fr Côte d'Ivoire
        CK COK - Cook Islands
        CL CHL es Chile
        CM CMR fr Cameroon
        CN CHN zh-Hans China
        CO COL es Colombia
        CR CRI es Costa Rica
        CU CUB - Cuba
        CV CPV pt Cabo Verde
        CW CUW - Curaçao
        CX CXR - Christmas Island
        CY CYP el Cyprus
        CZ CZE cs Czechia
        DE DEU de Germany
        DJ DJI - Djibouti
        DK DNK da Denmark
        DM DMA en Dominica
        DO DOM es Dominican Republic
        DZ DZA ar Algeria
        EC ECU es Ecuador
        EE EST et Estonia
        EG EGY ar Egypt
        EH ESH - Western Sahara
        ER ERI - Eritrea
        ES ESP es Spain
        ET ETH - Ethiopia
        FI FIN fi Finland
        FJ FJI en Fiji
        FK FLK - Falkland Islands (Malvinas)
        FM FSM en Micronesia, Federated States of
        FO FRO - Faroe Islands
        FR FRA fr France
        GA GAB fr Gabon
        GB GBR en United Kingdom
        GD GRD en Grenada
        GE GEO ka Georgia
        GF GUF - French Guiana
        GG GGY - Guernsey
        GH GHA en Ghana
        GI GIB - Gibraltar
        GL GRL - Greenland
        GM GMB en Gambia
        GN GIN - Guinea
        GP GLP - Guadeloupe
        GQ GNQ - Equatorial Guinea
        GR GRC el Greece
        GS SGS - South Georgia and the South Sandwich Islands
        GT GTM es Guatemala
        GU GUM - Guam
        GW GNB pt Guinea-Bissau
        GY GUY en Guyana
        HK HKG zh-Hant Hong Kong
        HM HMD - Heard Island and McDonald Islands
        HN HND es Honduras
        HR HRV hr Croatia
        HT HTI - Haiti
        HU HUN hu Hungary
        ID IDN id Indonesia
        IE IRL en Ireland
        IL ISR he Israel
        IM IMN - Isle of Man
        IN IND en India
        IO IOT - British Indian Ocean Territory
        IQ IRQ ar Iraq
        IR IRN - Iran
        IS ISL is Iceland
        IT ITA it Italy
        JE JEY - Jersey
        JM JAM en Jamaica
        JO JOR ar Jordan
        JP JPN ja Japan
        KE KEN en Kenya
        KG KGZ ky Kyrgyzstan
        KH KHM km Cambodia
        KI KIR - Kiribati
        KM COM - Comoros
        KN KNA en Saint Kitts and Nevis
        KP PRK - Korea, Democratic People's Republic of
        KR KOR ko Korea, Republic of
        KW KWT ar Kuwait
        KY CYM en Cayman Islands
        KZ KAZ kk Kazakhstan
        LA LAO lo Lao People's Democratic Republic
        LB LBN ar Lebanon
        LC LCA en Saint Lucia
        LI LIE - Liechtenstein
        LK LKA si Sri Lanka
        LR LBR en Liberia
        LS LSO - Lesotho
        LT LTU lt Lithuania
        LU LUX fr Luxembourg
        LV LVA lv Latvia
        LY LBY ar Libya
        MA MAR ar Morocco
        MC MCO - Monaco
        MD MDA ro Moldova
        ME MNE sr Montenegro
        MF MAF - Saint Martin (French part)
        MG MDG fr Madagascar
        MH MHL - Marshall Islands
        MK MKD mk North Macedonia
        ML MLI fr Mali
        MM MMR my Myanmar
        MN MNG mn Mongolia
        MO MAC zh-Hant Macao
        MP MNP - Northern Mariana Islands
        MQ MTQ - Martinique
        MR MRT ar Mauritania
        MS MSR en Montserrat
        MT MLT mt Malta
        MU MUS en Mauritius
        MV MDV dv Maldives
        MW MWI en Malawi
        MX MEX es Mexico
        MY MYS ms Malaysia
        MZ MOZ pt Mozambique
        NA NAM en Namibia
        NC NCL - New Caledonia
        NE NER fr Niger
        NF NFK - Norfolk Island
        NG NGA en Nigeria
        NI NIC es Nicaragua
        NL NLD nl Netherlands
        NO NOR nb Norway
        NP NPL ne Nepal
        NR NRU en Nauru
        NU NIU - Niue
        NZ NZL en New Zealand
        OM OMN ar Oman
        PA PAN es Panama
        PE PER es Peru
        PF PYF - French Polynesia
        PG PNG en Papua New Guinea
        PH PHL en Philippines
        PK PAK ur Pakistan
        PL POL pl Poland
        PM SPM - Saint Pierre and Miquelon
        PN PCN - Pitcairn
        PR PRI - Puerto Rico
        PS PSE - Palestine, State of
        PT PRT pt Portugal
        PW PLW en Palau
        PY PRY es Paraguay
        QA QAT ar Qatar
        RE REU - Réunion
        RO ROU ro Romania
        RS SRB sr Serbia
        RU RUS ru Russian Federation
        RW RWA en Rwanda
        SA SAU ar Saudi Arabia
        SB SLB en Solomon Islands
        SC SYC en Seychelles
        SD SDN - Sudan
        SE SWE sv Sweden
        SG SGP en Singapore
        SH SHN - Saint Helena, Ascension and Tristan da Cunha
        SI SVN sl Slovenia
        SJ SJM - Svalbard and Jan Mayen
        SK SVK sk Slovakia
        SL SLE en Sierra Leone
        SM SMR - San Marino
        SN SEN fr Senegal
        SO SOM - Somalia
        SR SUR nl Suriname
        SS SSD - South Sudan
        ST STP pt Sao Tome and Principe
        SV SLV es El Salvador
        SX SXM - Sint Maarten (Dutch part)
        SY SYR - Syrian Arab Republic
        SZ SWZ en Eswatini
        TC TCA en Turks and Caicos Islands
        TD TCD fr Chad
        TF ATF - French Southern Territories
        TG TGO - Togo
        TH THA th Thailand
        TJ TJK tg Tajikistan
        TK TKL - Tokelau
        TL TLS - Timor-Leste
        TM TKM tk Turkmenistan
        TN TUN ar Tunisia
        TO TON en Tonga
        TR TUR tr Türkiye
        TT TTO en Trinidad and Tobago
        TV TUV - Tuvalu
        TW TWN zh-Hant Taiwan
        TZ TZA en Tanzania, United Republic of
        UA UKR uk Ukraine
        UG UGA en Uganda
        UM UMI - United States Minor Outlying Islands
        US USA en United States
        UY URY es Uruguay
        UZ UZB uz Uzbekistan
        VA VAT - Holy See
        VC VCT en Saint Vincent and the Grenadines
        VE VEN es Venezuela
        VG VGB en Virgin Islands (British)
        VI VIR - Virgin Islands (U.S.)
        VN VNM vi Viet Nam
        VU VUT en Vanuatu
        WF WLF - Wallis and Futuna
        WS WSM - Samoa
        YE YEM ar Yemen
        YT MYT - Mayotte
        ZA ZAF en South Africa
        ZM ZMB en Zambia
        ZW ZWE en Zimbabwe
        """
}
