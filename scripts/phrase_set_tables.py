"""What scripts/build_phrase_set.py reads: the CC-CEDICT headwords chosen, the Parallel UD
sentences with the names a translation into English must hold, and the sentences written for
fanyi with the names they are filled with."""

# greetings, courtesy, signs and set phrases (CC-CEDICT headwords, chosen by hand)
PHRASES = """
你好 您好 早上好 早安 午安 晚上好 晚安 再见 明天见 回头见 回见 拜拜 好久不见 幸会 久仰
请多关照 欢迎 欢迎光临 请进 请坐 慢走 珍重 善自保重 一路平安 一路顺风 好运 心想事成
万事如意 恭喜 恭喜发财 新年快乐 恭贺新禧 新禧 圣诞快乐 生日快乐 周末愉快 谢谢 多谢
非常感谢 感谢 不用谢 不客气 别客气 不谢 哪里哪里 谬奖 对不起 不好意思 抱歉 没关系 没事 不要紧
没什么 打扰了 劳驾 借过 请问 稍等 等一下 等一等 请便 失陪 有劳 拜托 干杯 加油 小心 当心 救命
快点 慢慢来 放心 没问题 当然 是的 对了 没错 太好了 真棒 怎么了 怎么回事 贵姓 几岁 几点 知道了
随便 无所谓 算了 不了 闭嘴 请勿吸烟 请勿打扰 禁止吸烟 小心地滑 危险 出口 入口 买单 结账 打包
菜单 帮帮忙 一言为定 祝贺 可喜可贺 女士优先 少管闲事 天晓得 天哪 谢天谢地 糟糕 可惜 好球
一帆风顺 生意兴隆 早日康复 后会有期 慢慢吃 服务员
"""

# what a traveller names: places, food, festivals, languages (CC-CEDICT headwords)
TERMS = """
火车站 机场 地铁 地铁站 出租车 公共汽车 医院 警察 警察局 银行 药店 厕所 洗手间 超市 餐厅
咖啡馆 啤酒 米饭 面条 饺子 豆腐 北京烤鸭 宫保鸡丁 麻婆豆腐 火锅 春卷 月饼 红茶 矿泉水 护照
签证 行李 登机牌 地图 手机 充电器 信用卡 现金 人民币 美元 零钱 收据 房间 钥匙 早餐 午饭 晚饭
周末 星期一 星期五 星期天 春节 中秋节 端午节 国庆节 元宵节 清明节 圣诞节 感恩节 情人节 母亲节
父亲节 除夕 元旦 天安门 长城 故宫 颐和园 兵马俑 外滩 西湖 长江 黄河 珠穆朗玛峰 喜马拉雅山
太平洋 联合国 世界卫生组织 奥运会 世界杯 红包 鞭炮 舞龙 舞狮 汉语 中文 英语 普通话 粤语
汉字 拼音 中国菜 中药 太极拳 京剧 大熊猫
"""

# the English source into Chinese where the first gloss is no phrase a user types, or where
# another headword of the set has it too ("" for none: the row is scored into English only)
SOURCE_OVERRIDES = {
    "加油": "",  # "add oil": a cheer, its glosses a verb's
    "谢谢": "thank you",
    "感谢": "thanks",
    "慢走": "",
    "不了": "no thanks",
    "久仰": "It's an honor to meet you at last",
    "请坐": "please have a seat",
    "万事如意": "all the best",
    "恭喜": "congratulations",
    "祝贺": "",
    "可喜可贺": "",
    "不好意思": "",
    "抱歉": "sorry",
    "珍重": "Please take good care of yourself",
    "心想事成": "wish you the best",
    "非常感谢": "",
    "谬奖": "You praise me too much",
    "不要紧": "",
    "没事": "",
    "没什么": "it's nothing",
    "打扰了": "sorry to have bothered you",
    "失陪": "Excuse me, I must be leaving now",
    "请问": "may I ask",
    "借过": "",
    "干杯": "cheers",
    "对了": "",
    "无所谓": "",
    "算了": "forget about it",
    "打包": "",
    "帮帮忙": "",
    "生意兴隆": "",
    "早日康复": "get well soon",
    "一帆风顺": "have a nice trip",
    "当然": "of course",
    "放心": "",
    "知道了": "got it",
    "一路平安": "bon voyage",
    "后会有期": "hope to see you again",
    "餐厅": "restaurant",
    "地铁": "subway",
    "零钱": "small change",
    "晚饭": "dinner",
    "国庆节": "National Day",
    "清明节": "Tomb Sweeping Day",
    "圣诞节": "Christmas",
    "外滩": "the Bund",
    "拼音": "pinyin",
    "太极拳": "tai chi",
    "中秋节": "Mid-Autumn Festival",
    "颐和园": "Summer Palace",
    "西湖": "West Lake",
    "天安门": "Tiananmen",
    "红包": "red envelope",
    "汉语": "",
    "随便": "",
}

# what a translation into English may also write, where the glosses say it only inside a
# description ("Mid-Autumn Festival on 15th of 8th lunar month")
EXTRA_FORMS = {
    "中秋节": "Mid-Autumn Festival|Mid-Autumn",
    "颐和园": "Summer Palace",
    "天安门": "Tiananmen",
    "外滩": "Bund",
    "太极拳": "tai chi|taiji|t'ai chi",
    "红包": "red envelope|red packet",
    "除夕": "New Year's Eve",
    "国庆节": "National Day",
    "久仰": "honor to meet you",
}

# Parallel UD sentence id, then the names a translation into English holds ("; " between names,
# "|" between the ways to write one), checked by hand against both sides
NEWS = """
n01001013 Capitol Hill
n01002042 Clinton|Hillary
n01009027 Khanzir
n01010042 Panvalkar
n01012003 Yazidi
n01013005 Osborne; US|U.S.|American|United States
n01016019 Huawei; Samsung
n01016032 Mate 9; Google; Apple; Siri
n01019004 UK|U.K.|Britain|British; GCHQ
n01024016 RHS
n01025045 Tarlo
n01026016 Shenzhen
n01027041 Trump
n01033028 Pugh; Papworth; Addenbrooke; Cambridge|Cambridgeshire
n01036033 RECO
n01041006 Mailis; CBC
n01041018 Mailis
n01046036 SaskTel; Lindsay Gay
n01053041 Leive
n01055008 CRTC
n01061016 Clinton; Karel; First Lady
n01064009 Plato
n01066068 Woods
n01066093 Alice
n01070017 Vega
n01072010 BBC; Bush House
n01072012 BBC
n01073004 Australia|Australian
n01074011 England
n01078025 Germany; Nazi|Nazis
n01084008 Tesco
n01087005 Rocco Catalano
n01088026 Frank
n01089033 Wintour
n01092014 Australia|Australian
n01093007 Celtic Sea; EU|European Union
n01097098 Bellingham; Canada|Canadian
n01101017 Hong Kong
n01105023 Davis Cup
n01106015 Hopley
n01116035 Glenda
n01118017 Hollywood
n01119017 Bob
n01120010 Doss
n01121032 Millican; Odi
n01123012 Cotton; Sunderland
n01125016 London; South Bank Tower; Rachel Winham
n01127130 Hong Kong; High Court
n01130003 North Carolina
n01134005 U.S.|US|United States|American; Europe|European
n01137003 CNN; Stranger Things
n01138007 Negan; Jeffrey Dean Morgan
n01139006 Barratt
n01140012 Netherlands|Holland|Dutch
n01141002 Microsoft; Slack
n01145012 Mexico; Brazil
n01145028 González Anaya|Gonzalez Anaya
n01146046 Japan
n01148029 MahaNakhon; Bangkok
n01149010 CNN Style
n01149027 Pyongyang
n01150031 India
w01003051 Line Islands; Pacific; Maldives; Indian Ocean
w01003056 Seychelles; Tioman; Saint Helena|St Helena|St. Helena
w01005020 Darius; Megabazus; Balkans
w01006027 Athina Film; Asty Film
w01006081 El Greco; Yannis Smaragdis
w01007004 Monaco; French|France
w01007087 Fontvieille
w01008043 Northern Ireland; England; Wales
w01016070 China; Olympic|Olympics
w01019073 Sahel
w01022055 Danish
w01025087 Danevirke; German|Germany
w01026024 Danube
w01027035 Algeria; Mediterranean
w01028004 Ohio; Mississippi
w01028069 Kansas
w01030092 Alps; Europe
w01030094 Milan; Alpine|Alps
w01036077 Papua New Guinea
w01037024 North America; South America
w01041046 Thailand
w01043065 Nile; Gezira Island
w01044010 Nevada
w01046056 Cape Town
w01049066 Australia; Royal National Park
w01050067 Qing; Mongolia; Bogd Khaan|Bogd Khan
w01050068 Republic of China; Mongolia
w01051032 Kadesh; Ramesses II
w01052022 Ramesses; Egypt
w01057016 Trojan War
w01058009 Julian
w01058013 Olympic Games|Olympics
w01061050 Italy; Salerno; Islamic
w01064034 Europe
w01068056 Aldrin
w01071043 Yucatán|Yucatan
w01073054 Stephen Wheeler; Kipling
w01073067 Lahore
w01079038 Heinrich Kramer; Salzburg
w01079049 Spanish Inquisition
w01080129 Philip
w01081030 Catherine; Russia
w01082055 Pearl Harbor; American|America
w01083007 Romanov
w01085004 Cuba
w01085007 United States|U.S.|US; Cuba
w01086012 Venice; France
w01086037 Venice
w01092019 James Watt; Scotsman|Scottish
w01092032 Industrial Revolution
w01100047 China; Treaty of Nanking|Treaty of Nanjing
w01106052 Congo; Lubumbashi
w01107013 Hitchcock
w01107063 Hitchcock
w01109036 Lenny
w01109120 Homer
w01111021 Winstone; Corona Stage Academy; Hammersmith
w01111089 Winstone; Elaine
w01111093 Winstone
w01112098 Disney; Academy Award|Oscar
w01113058 Prabowo Subianto; Indonesian|Indonesia
w01114053 Kim
w01115026 Kirriemuir
w01116100 Tolle; Christian
w01117029 Margaret Douglas; Lennox
w01125035 Grafton; Tories|Tory; Lord North
w01125037 George
w01128059 Louis Post Dispatch|Louis Post-Dispatch; LaBeouf
w01129019 Kenseth
w01129037 Elliott
w01130103 Rafferty; Hugh Murphy
w01134009 Mishima; Tokugawa Ieyasu
w01134078 Mishima
w01135034 Blunt; Yves Saint Laurent
w01135036 Disney; Muppets; Miss Piggy
w01136029 Valentino; Arab
w01139043 Smith
w01140032 Rona
w01141025 CTV; Montreal
w01141077 Sara Errani
w01141137 Bouchard
w01142031 John of Gaunt
w01142063 Lyvet; Tower
w01147122 Kesha
w01149002 Wright; Poole; Dorset; Wells; Somerset
w01150044 Great Powers; Albania
w01150046 Albania; Ottoman
n02004007 Salaman|Salman; Mohammed al-Jadaan
n02027007 Parker; Russian|Russia; Great Britain|Britain|UK
n02027019 Russia
n02033063 Kühn|Kuhn
n02036018 Von Beust|von Beust
n02038007 Simon Krätschmer
n02042028 Vine
n02044008 Kerber
n02056019 Germany
n02068010 Barroso|Barrosos
n02069039 Dündar
n02075020 Dündar; Europe; Erdogan|Erdoğan
n02078004 Asia
n02079042 Lucas Cranach
n03001007 Comey
n03001023 Twitter; Obama
n03002003 United States|America|U.S.|US
n03005007 Rachida Dati; Nicolas Sarkozy|Sarkozy
n03008011 ETA; French|France
n03010019 France
n04002020 Italy; Madrid
n04002027 Italy
n04003043 Geronimo; Sheppard
n04006010 EU|European Union
n04008016 Pope Francis; Mark Zuckerberg|Zuckerberg; Casa Santa Marta|Santa Marta
n04010017 Amazon; ExxonMobil|Exxon Mobil|Mobil
n05001008 Durán; Ángel Pintado
n05003010 Cospedal
n05005002 Federico Fellini|Fellini
n05008012 Trump; Latin American|Latino
n05009030 FSLN; Plaza de las Victorias|Victorias
w02003070 Turkey
w02004008 St. Peter|St Peter|Saint Peter; Paul
w02005027 San Franciscans|San Francisco
w02005029 Martin Luther King
w02006081 Labor Party|Labour Party
w02012042 First World War|World War I
w02013015 Industrial Revolution; Great Britain|Britain|England|UK
w02015084 Disibodenberg; Reformation
w02015086 Rupertsberg; Thirty Years' War|Thirty Years War; Swedish
w02015087 Eibingen
w02018030 Weiss; Cologne; Bremen
w03001058 Carcassonne
w03002055 Amnesty International
w03004107 Pyrrhus; Sicily; Italy
w03010096 Remis|Remy; Switzerland
w05005086 Burgoyne; Albany
w05005087 Freeman; Hudson River|Hudson
w05010025 Marco Antonio|Mark Antony|Marc Antony
"""

# names the sentences written for fanyi are filled with: Chinese persons' common full names in
# pinyin; foreign persons, places and organisations as CC-CEDICT writes them (a foreign name,
# marked True, may stay in Latin letters in Chinese text)
LI, WANG, ZHANG = ("李伟", "Li Wei"), ("王小明", "Wang Xiaoming"), ("张伟", "Zhang Wei")
FANG, NA, YANG = ("王芳", "Wang Fang"), ("李娜", "Li Na"), ("刘洋", "Liu Yang")
JING, FAN, LEI = ("陈静", "Chen Jing"), ("杨帆", "Yang Fan"), ("赵磊", "Zhao Lei")
HUANG, JIE, MIN = ("黄丽", "Huang Li"), ("周杰", "Zhou Jie"), ("吴敏", "Wu Min")
TOM, MARY, JOHN = ("汤姆", "Tom", True), ("玛丽", "Mary", True), ("约翰", "John", True)
DAVID, ANNA, PETER = ("大卫", "David", True), ("安娜", "Anna", True), ("彼得", "Peter", True)
TAIPEI, BEIJING, SHANGHAI = ("台北", "Taipei"), ("北京", "Beijing"), ("上海", "Shanghai")
HONG_KONG, CHENGDU, XIAN = ("香港", "Hong Kong"), ("成都", "Chengdu"), ("西安", "Xi'an")
NANJING, LONDON, PARIS = ("南京", "Nanjing"), ("伦敦", "London"), ("巴黎", "Paris")
NEW_YORK, TOKYO, BOSTON = ("纽约", "New York"), ("东京", "Tokyo"), ("波士顿", "Boston")
SYDNEY, GUANGZHOU = ("悉尼", "Sydney"), ("广州", "Guangzhou")

SIGHTS = [("长城", "the Great Wall"), ("故宫", "the Forbidden City"), ("外滩", "the Bund"),
          ("西湖", "West Lake"), ("天安门", "Tiananmen"), ("颐和园", "the Summer Palace")]  # fmt: skip
ORGANISATIONS = [("微软", "Microsoft"), ("谷歌", "Google"), ("华为", "Huawei"),
                 ("阿里巴巴", "Alibaba"), ("腾讯", "Tencent"), ("联合国", "the United Nations")]  # fmt: skip
UNIVERSITIES = [("上海交通大学", "Shanghai Jiao Tong University"), ("北京大学", "Peking University"),
                ("清华大学", "Tsinghua University"), ("复旦大学", "Fudan University"),
                ("哈佛大学", "Harvard University")]  # fmt: skip
TRIPS = [(YANG, BEIJING), (FAN, HONG_KONG), (LEI, NANJING), (JIE, GUANGZHOU), (TOM, PARIS),
         (MARY, TOKYO)]  # fmt: skip

# (English, Chinese, into English, into Chinese) of each sentence, and its names
TEMPLATES = [
    (
        (
            "My name is {p}.",
            "我叫{p}。",
            "My name is|I'm|I am; {p}",
            "我叫|我的名字是|我是|我名叫; {p}",
        ),
        [{"p": p} for p in (WANG, LI, FANG, JING, MIN, HUANG, TOM, ANNA)],
    ),
    (
        (
            "{p} is my colleague.",
            "{p}是我的同事。",
            "{p}; colleague|colleagues|co-worker|coworker",
            "{p}; 同事",
        ),
        [{"p": p} for p in (LI, ZHANG, NA, YANG, FAN, JIE)],
    ),
    (
        ("I live in {c}.", "我住在{c}。", "live in|living in; {c}", "住在; {c}"),
        [{"c": c} for c in (TAIPEI, SHANGHAI, CHENGDU, XIAN, LONDON, NEW_YORK, SYDNEY)],
    ),
    (("Let's go to {l}.", "我们去{l}吧。", "{l}", "{l}"), [{"l": place} for place in SIGHTS]),
    (
        ("I work at {o}.", "我在{o}工作。", "work|working; {o}", "{o}; 工作"),
        [{"o": org} for org in ORGANISATIONS],
    ),
    (("He studies at {u}.", "他在{u}读书。", "{u}", "{u}"), [{"u": u} for u in UNIVERSITIES]),
    (
        ("Do you know {p}?", "你认识{p}吗？", "know|known; {p}", "认识|知道; {p}"),
        [{"p": p} for p in (ZHANG, FANG, LEI, MIN, JOHN, MARY)],
    ),
    (
        ("Happy birthday, {p}!", "生日快乐，{p}！", "Happy birthday; {p}", "生日快乐; {p}"),
        [{"p": p} for p in (NA, JING, HUANG, DAVID, PETER)],
    ),
    (
        ("{p} is going to {c} tomorrow.", "{p}明天去{c}。", "{p}; {c}", "{p}; {c}"),
        [{"p": p, "c": c} for p, c in TRIPS],
    ),
    (
        ("{p} is my friend.", "{p}是我的朋友。", "{p}; friend|friends", "{p}; 朋友"),
        [{"p": p} for p in (JOHN, DAVID, ANNA, PETER, WANG, LI)],
    ),
]
