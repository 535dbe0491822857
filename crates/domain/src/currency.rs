//! The currencies a plant's income can be counted in.

use crate::Lang;

pub struct Currency {
    pub id: i64,
    pub code: &'static str,
    pub symbol: &'static str,
    names: [&'static str; 3],
}

impl Currency {
    pub fn name(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.names[0],
            Lang::Zh => self.names[1],
            Lang::Es => self.names[2],
        }
    }
}

macro_rules! currencies {
    ($($id:literal $code:literal $symbol:literal [$en:literal, $zh:literal, $es:literal])*) => {
        pub static CURRENCIES: &[Currency] = &[$(
            Currency { id: $id, code: $code, symbol: $symbol, names: [$en, $zh, $es] },
        )*];
    };
}

currencies! {
    1 "USD" "$" ["US dollar", "美元", "Dólar estadounidense"]
    2 "EUR" "€" ["Euro", "欧元", "Euro"]
    3 "GBP" "£" ["Pound sterling", "英镑", "Libra esterlina"]
    4 "CNY" "¥" ["Chinese yuan", "人民币", "Yuan chino"]
    5 "JPY" "¥" ["Japanese yen", "日元", "Yen japonés"]
    6 "AUD" "A$" ["Australian dollar", "澳元", "Dólar australiano"]
    7 "CAD" "C$" ["Canadian dollar", "加元", "Dólar canadiense"]
    8 "CHF" "CHF" ["Swiss franc", "瑞士法郎", "Franco suizo"]
    9 "INR" "₹" ["Indian rupee", "印度卢比", "Rupia india"]
    10 "BRL" "R$" ["Brazilian real", "巴西雷亚尔", "Real brasileño"]
    11 "MXN" "MX$" ["Mexican peso", "墨西哥比索", "Peso mexicano"]
    12 "ZAR" "R" ["South African rand", "南非兰特", "Rand sudafricano"]
    13 "PLN" "zł" ["Polish złoty", "波兰兹罗提", "Esloti polaco"]
    14 "SEK" "kr" ["Swedish krona", "瑞典克朗", "Corona sueca"]
    15 "NOK" "kr" ["Norwegian krone", "挪威克朗", "Corona noruega"]
    16 "DKK" "kr" ["Danish krone", "丹麦克朗", "Corona danesa"]
    17 "CZK" "Kč" ["Czech koruna", "捷克克朗", "Corona checa"]
    18 "HUF" "Ft" ["Hungarian forint", "匈牙利福林", "Forinto húngaro"]
    19 "TRY" "₺" ["Turkish lira", "土耳其里拉", "Lira turca"]
    20 "KRW" "₩" ["South Korean won", "韩元", "Won surcoreano"]
    21 "THB" "฿" ["Thai baht", "泰铢", "Baht tailandés"]
    22 "VND" "₫" ["Vietnamese dong", "越南盾", "Dong vietnamita"]
    23 "PHP" "₱" ["Philippine peso", "菲律宾比索", "Peso filipino"]
    24 "MYR" "RM" ["Malaysian ringgit", "马来西亚林吉特", "Ringgit malayo"]
    25 "IDR" "Rp" ["Indonesian rupiah", "印尼盾", "Rupia indonesia"]
    26 "PKR" "₨" ["Pakistani rupee", "巴基斯坦卢比", "Rupia pakistaní"]
    27 "NGN" "₦" ["Nigerian naira", "尼日利亚奈拉", "Naira nigeriano"]
    28 "EGP" "E£" ["Egyptian pound", "埃及镑", "Libra egipcia"]
    29 "AED" "د.إ" ["UAE dirham", "阿联酋迪拉姆", "Dírham de los EAU"]
    30 "SAR" "﷼" ["Saudi riyal", "沙特里亚尔", "Riyal saudí"]
    31 "CLP" "CLP$" ["Chilean peso", "智利比索", "Peso chileno"]
    32 "COP" "COL$" ["Colombian peso", "哥伦比亚比索", "Peso colombiano"]
    33 "ARS" "AR$" ["Argentine peso", "阿根廷比索", "Peso argentino"]
    34 "PEN" "S/" ["Peruvian sol", "秘鲁索尔", "Sol peruano"]
    35 "NZD" "NZ$" ["New Zealand dollar", "新西兰元", "Dólar neozelandés"]
    36 "UAH" "₴" ["Ukrainian hryvnia", "乌克兰格里夫纳", "Grivna ucraniana"]
    37 "RON" "lei" ["Romanian leu", "罗马尼亚列伊", "Leu rumano"]
    38 "ILS" "₪" ["Israeli shekel", "以色列新谢克尔", "Séquel israelí"]
    39 "KES" "KSh" ["Kenyan shilling", "肯尼亚先令", "Chelín keniano"]
    40 "HKD" "HK$" ["Hong Kong dollar", "港元", "Dólar de Hong Kong"]
}

/// A currency by its id (as the income form sends it) or its ISO code.
pub fn find(id_or_code: &str) -> Option<&'static Currency> {
    let key = id_or_code.trim();
    match key.parse::<i64>() {
        Ok(id) => CURRENCIES.iter().find(|c| c.id == id),
        Err(_) => CURRENCIES.iter().find(|c| c.code.eq_ignore_ascii_case(key)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn currencies_are_found_by_id_or_code_and_are_unique() {
        assert_eq!(find("3").map(|c| c.code), Some("GBP"));
        assert_eq!(find("eur").map(|c| c.id), Some(2));
        assert!(find("XXX").is_none());
        let mut codes: Vec<_> = CURRENCIES.iter().map(|c| c.code).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), CURRENCIES.len());
    }
}
