#include "csmith.h"
union U0 {
};
union U1 {
   const signed f3 : 5;
};
static uint8_t g_26 = 0UL;
static int32_t g_28 = 0x98B94BE3L;
static int32_t g_29 = 0xBB24ADC9L;
static int32_t g_30 = (-3L);
static uint16_t g_52 = 0x4600L;
static int32_t *g_82 = &g_30;
static uint8_t g_90 = 5UL;
static int32_t g_92 = 0x3AE792F6L;
static uint16_t g_117 = 1UL;
static uint32_t g_173 = 0xB38CAC1DL;
static const uint8_t g_213 = 2UL;
static const uint8_t *g_212 = &g_213;
static int16_t g_227 = 0L;
static int16_t g_229 = 0xC493L;
static int16_t *g_228 = &g_229;
static uint32_t g_238 = 0xF32220C7L;
static uint64_t g_240 = 6UL;
static uint16_t *g_244 = &g_117;
static int64_t g_304 = 0x174A22506B0F8228LL;
static int32_t *g_369 = &g_92;
static uint64_t g_378 = 0xD957DF1A24570CD1LL;
static int32_t g_407 = 0x483B8E74L;
static int16_t g_411 = (-6L);
static int32_t g_412 = 0xC3E0D10FL;
static int16_t g_413[6] = {0xA660L,0xA660L,0xA660L,0xA660L,0xA660L,0xA660L};
static uint8_t g_415 = 0x86L;
static uint32_t g_446 = 3UL;
static volatile uint64_t g_597 = 1UL;/* VOLATILE GLOBAL g_597 */
static const volatile uint64_t *g_596 = &g_597;
static const volatile uint64_t **g_595 = &g_596;
static const volatile uint64_t ** volatile * volatile g_594 = &g_595;/* VOLATILE GLOBAL g_594 */
static const volatile uint64_t ** volatile * volatile *g_593 = &g_594;
static uint8_t *g_682 = &g_26;
static uint8_t **g_681 = &g_682;
static uint8_t ***g_680 = &g_681;
static volatile union U1 g_905 = {0L};/* VOLATILE GLOBAL g_905 */
static int32_t **g_970 = &g_369;
static int32_t ***g_969[9] = {&g_970,&g_970,&g_970,&g_970,&g_970,&g_970,&g_970,&g_970,&g_970};
static uint16_t g_1012[3][4] = {{8UL,65533UL,65533UL,8UL},{65533UL,8UL,65533UL,65533UL},{8UL,8UL,0xB7AAL,8UL}};
/* 
 */
static int32_t * func_12(uint16_t  p_13, uint8_t  p_14, const int32_t  p_15, uint32_t  p_16)
{ /* block id: 450 */
    uint64_t * const **l_897 = (void*)0;
    uint64_t * const ** const *l_896 = &l_897;
    uint64_t * const ** const **l_895 = &l_896;
    int32_t l_898 = 0x28325100L;
    int32_t l_913 = 8L;
    int32_t l_914[1][5][5] = {{{(-1L),1L,1L,(-1L),1L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{1L,(-1L),1L,1L,(-1L)},{(-1L),1L,1L,(-1L),1L},{(-1L),(-1L),(-1L),(-1L),(-1L)}}};
    int32_t *l_962[1][7][7] = {{{(void*)0,&g_407,(void*)0,(void*)0,&g_407,(void*)0,(void*)0},{&g_29,&g_29,(void*)0,&g_29,&g_29,(void*)0,&g_29},{&g_407,(void*)0,(void*)0,&g_407,(void*)0,(void*)0,&g_407},{&l_914[0][2][0],&g_29,&l_914[0][2][0],&l_914[0][2][0],&g_29,&l_914[0][2][0],&l_914[0][2][0]},{&g_407,&g_407,&g_92,&g_407,(void*)0,&g_407,(void*)0},{&l_914[0][2][0],(void*)0,(void*)0,&l_914[0][2][0],(void*)0,(void*)0,&l_914[0][2][0]},{&g_92,(void*)0,&g_92,&g_92,(void*)0,&g_92,&g_92}}};
    int32_t l_971 = 0x701F99D9L;
    uint32_t *l_1025[4][9][2] = {{{&g_446,&g_173},{&g_173,(void*)0},{(void*)0,&g_173},{&g_173,&g_173},{(void*)0,(void*)0},{&g_173,&g_173},{&g_446,&g_446},{&g_446,(void*)0},{&g_173,&g_446}},{{&g_173,&g_173},{&g_173,&g_446},{&g_173,(void*)0},{&g_446,&g_446},{&g_446,&g_173},{&g_173,(void*)0},{(void*)0,&g_173},{&g_173,&g_173},{(void*)0,(void*)0}},{{&g_173,&g_173},{&g_446,&g_446},{&g_446,(void*)0},{&g_173,&g_446},{&g_173,&g_173},{&g_173,&g_446},{&g_173,(void*)0},{&g_446,&g_446},{&g_446,&g_173}},{{&g_173,(void*)0},{(void*)0,&g_173},{&g_173,&g_173},{(void*)0,(void*)0},{&g_173,&g_173},{&g_446,&g_446},{&g_446,(void*)0},{&g_173,&g_446},{&g_173,&g_173}}};
    uint64_t **l_1057 = (void*)0;
    if (((!(((&g_593 != l_895) == (((***g_680) = p_14) == l_898)) <= (((g_240 = (((l_898 | ((safe_add_func_int32_t_s_s(0xD93B6698L, p_13)) & (((safe_mul_func_int16_t_s_s((safe_sub_func_int16_t_s_s(p_15, (g_905 , l_898))), (*g_244))) >= g_90) || p_16))) >= 1L) < p_14)) > 1L) > 0x2EL))) <= (-6L)))
    { /* block id: 453 */
        uint64_t l_960 = 18446744073709551613UL;
        int32_t **l_968 = &l_962[0][2][3];
        int32_t ** const *l_967[5][1][9] = {{{&l_968,&l_968,(void*)0,(void*)0,(void*)0,&l_968,&l_968,(void*)0,(void*)0}},{{&l_968,&l_968,&l_968,&l_968,&l_968,&l_968,&l_968,&l_968,&l_968}},{{&l_968,(void*)0,(void*)0,&l_968,&l_968,&l_968,(void*)0,(void*)0,&l_968}},{{&l_968,&l_968,&l_968,&l_968,&l_968,(void*)0,&l_968,&l_968,&l_968}},{{(void*)0,&l_968,(void*)0,(void*)0,&l_968,(void*)0,&l_968,(void*)0,(void*)0}}};
        uint64_t *l_1042[4] = {&g_378,&g_378,&g_378,&g_378};
        uint64_t **l_1046 = &l_1042[0];
        uint64_t ***l_1045 = &l_1046;
        for (g_28 = 22; (g_28 < 2); g_28--)
        { /* block id: 464 */
            int32_t l_972[10] = {0x06DCC451L,0x0081B6C9L,0x06DCC451L,0x06DCC451L,0x0081B6C9L,0x06DCC451L,0x06DCC451L,0x0081B6C9L,0x06DCC451L,0x06DCC451L};
            uint32_t *l_994 = &g_446;
            uint32_t *l_1023 = &g_173;
            for (g_52 = 0; (g_52 <= 4); g_52 += 1)
            { /* block id: 471 */
                uint16_t *l_978 = &g_52;
                int32_t l_1022 = 0x29BF2B6CL;
                if ((g_413[g_52] , (g_173 < (0x42B322796972602CLL && ((p_14 <= ((safe_mul_func_int16_t_s_s((l_967[3][0][4] != (g_969[6] = &l_968)), l_971)) < (l_972[3] == 0x229F4FEFC9805517LL))) ^ p_14)))))
                { /* block id: 473 */
                    int32_t l_981[4][9][2] = {{{0L,0L},{0x2B29CC94L,1L},{0L,(-8L)},{0x394234F2L,0L},{1L,0x030C5F14L},{0x9A12E12FL,0x9A12E12FL},{0L,0x1EBE6FC8L},{0x030C5F14L,0x17292FF8L},{0x74F8CC15L,(-1L)}},{{0x394234F2L,0x74F8CC15L},{0L,0x9A12E12FL},{0L,0x74F8CC15L},{0x394234F2L,(-1L)},{0x74F8CC15L,0x17292FF8L},{4L,0L},{0L,0xF9CE26D9L},{0xF9CE26D9L,4L},{(-6L),0x1EBE6FC8L}},{{0L,2L},{0x17292FF8L,0x2C3109BCL},{1L,0L},{0x40165F3CL,(-6L)},{0x030C5F14L,0x99AA7806L},{2L,0L},{(-1L),0L},{0x2B29CC94L,0L},{(-1L),0L}},{{2L,0x99AA7806L},{0x030C5F14L,(-6L)},{0x40165F3CL,0L},{1L,0x2C3109BCL},{0x17292FF8L,2L},{0L,0x1EBE6FC8L},{(-6L),4L},{0xF9CE26D9L,0xF9CE26D9L},{0L,0L}}};
                    { /* block id: 483 */
                        uint16_t *l_1011 = &g_1012[2][3];
                        uint64_t *l_1020[10][4][6] = {{{&g_240,&g_240,&g_240,&g_240,&g_240,(void*)0},{&g_240,&g_240,(void*)0,&g_240,&g_240,(void*)0},{&l_960,&g_240,&g_240,&g_378,&g_240,(void*)0},{&g_240,&l_960,&l_960,(void*)0,&g_240,&g_240}},{{&g_240,&g_378,&l_960,&g_240,&g_240,(void*)0},{(void*)0,&g_240,&g_240,&g_240,&l_960,(void*)0},{&g_240,&l_960,(void*)0,&g_378,&g_378,(void*)0},{&g_240,&g_240,&g_240,&l_960,&g_240,(void*)0}},{{&g_240,&g_240,&l_960,&g_378,&l_960,&g_240},{&g_240,&g_240,&l_960,&g_378,&g_240,(void*)0},{&g_240,&g_378,&g_240,(void*)0,&g_240,(void*)0},{(void*)0,&g_240,(void*)0,&g_240,&g_240,(void*)0}},{{&g_240,&l_960,&g_240,(void*)0,&g_378,(void*)0},{&g_378,&g_240,&l_960,&l_960,&g_240,&g_240},{&l_960,&g_240,&l_960,&g_240,&l_960,(void*)0},{&g_240,&g_240,&g_240,&g_240,&g_240,(void*)0}},{{&g_240,&g_240,(void*)0,&g_240,&g_240,(void*)0},{&l_960,&g_240,&g_240,&g_378,&g_240,(void*)0},{&g_240,&l_960,&l_960,(void*)0,&g_240,&g_240},{&g_240,&g_378,&l_960,&g_240,&g_240,(void*)0}},{{(void*)0,&g_240,&g_240,&g_240,&l_960,(void*)0},{&g_240,&l_960,(void*)0,&g_378,&g_378,(void*)0},{&g_240,&l_960,&g_240,&l_960,&g_378,&g_378},{&l_960,(void*)0,&g_240,&g_378,(void*)0,&g_240}},{{(void*)0,&l_960,&g_240,(void*)0,&l_960,&g_378},{&g_240,(void*)0,&g_240,(void*)0,(void*)0,(void*)0},{(void*)0,(void*)0,(void*)0,&g_378,&l_960,(void*)0},{(void*)0,&g_240,&g_240,&g_240,(void*)0,&g_378}},{{(void*)0,&l_960,&g_240,&l_960,(void*)0,&g_240},{&g_240,&g_378,&g_240,&g_378,&g_240,&g_378},{&l_960,&l_960,&g_240,&g_240,&l_960,(void*)0},{&g_240,&l_960,(void*)0,&l_960,&g_378,(void*)0}},{{&g_240,(void*)0,&g_240,&g_378,&l_960,&g_378},{&g_378,(void*)0,&g_240,&g_240,&l_960,&g_240},{&l_960,(void*)0,&g_240,&l_960,(void*)0,&g_378},{(void*)0,&g_378,&g_240,&l_960,(void*)0,(void*)0}},{{&l_960,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0},{&l_960,&l_960,&g_240,&l_960,&g_378,&g_378},{&l_960,(void*)0,&g_240,&g_378,(void*)0,&g_240},{(void*)0,&l_960,&g_240,(void*)0,&l_960,&g_378}}};
                        uint64_t **l_1019 = &l_1020[5][0][1];
                        uint64_t ***l_1018 = &l_1019;
                        uint64_t ****l_1017 = &l_1018;
                        (*g_82) |= (l_994 == (l_1025[2][8][1] = ((safe_rshift_func_uint8_t_u_s((((safe_add_func_int16_t_s_s((l_972[4] = (p_16 != 0x0E54F3C4L)), (safe_lshift_func_uint8_t_u_u((safe_div_func_uint16_t_u_u(((safe_rshift_func_uint8_t_u_s((p_14 |= ((**g_681) = ((+((safe_lshift_func_uint8_t_u_s(0xEDL, 4)) < ((*l_1011) = (++(*g_244))))) , (***g_680)))), (safe_add_func_uint16_t_u_u((safe_mod_func_int8_t_s_s((l_1017 == &g_594), ((l_1022 = (l_981[3][5][0] &= p_15)) , 255UL))), (-1L))))) && (***g_594)), 0xE35DL)), 6)))) ^ g_413[g_52]) , l_981[0][3][1]), p_16)) , l_1023)));
                    }
                }
                { /* block id: 494 */
                }
            }
        }
        for (l_913 = 0; (l_913 != 6); l_913 = safe_add_func_uint16_t_u_u(l_913, 1))
        { /* block id: 503 */
        }
        { /* block id: 512 */
        }
        { /* block id: 514 */
            int32_t l_1050[9][6] = {{(-1L),(-1L),0x0CD77355L,0x75AA341EL,3L,0x0CD77355L},{0x75AA341EL,3L,0x0CD77355L,3L,0x75AA341EL,0x0CD77355L},{3L,0x75AA341EL,0x0CD77355L,(-1L),(-1L),0x0CD77355L},{(-1L),(-1L),0x0CD77355L,0x75AA341EL,3L,0x0CD77355L},{0x75AA341EL,3L,0x0CD77355L,3L,0x75AA341EL,0x0CD77355L},{3L,0x75AA341EL,0x0CD77355L,(-1L),(-1L),0x0CD77355L},{(-1L),(-1L),0x0CD77355L,0x75AA341EL,3L,0x0CD77355L},{0x75AA341EL,3L,0x0CD77355L,3L,0x75AA341EL,0x0CD77355L},{3L,0x75AA341EL,0x0CD77355L,(-1L),(-1L),0x0CD77355L}};
            (*g_369) = (((l_1050[6][4] ^ 1UL) > (safe_rshift_func_uint8_t_u_s((safe_sub_func_int8_t_s_s((safe_lshift_func_int16_t_s_s(((l_1057 = l_1057) == ((*l_1045) = (void*)0)), ((0x9395CCF6L == l_1050[6][4]) < ((((void*)0 == &g_681) <= l_1050[6][4]) >= g_905.f3)))), (*g_212))), p_15))) , l_1050[8][3]);
        }
    }
    for (l_971 = 0; (l_971 < 21); l_971 = safe_add_func_uint8_t_u_u(l_971, 3))
    { /* block id: 525 */
    }
}
static int8_t  func_24(int32_t  p_25)
{ /* block id: 3 */
    uint64_t l_27[1][1];
    int32_t l_526 = 0xF9BB5ACAL;
    int32_t *l_545 = &g_407;
    {
    }
    for (g_26 = 0; (g_26 <= 0); g_26 += 1)
    { /* block id: 6 */
        int32_t *l_528 = &g_92;
        for (p_25 = 0; (p_25 >= 0); p_25 -= 1)
        { /* block id: 9 */
        }
        for (g_304 = 0; (g_304 <= 0); g_304 += 1)
        { /* block id: 263 */
            uint8_t * const l_555 = &g_90;
            int32_t l_568 = 0x89A2521DL;
            { /* block id: 264 */
                int16_t **l_539 = &g_228;
                int32_t l_567 = 0xA1BB2AE3L;
                uint16_t l_569 = 1UL;
                for (l_526 = 0; (l_526 >= 0); l_526 -= 1)
                for (g_28 = 0; (g_28 <= 0); g_28 += 1)
                { /* block id: 272 */
                    { /* block id: 275 */
                    }
                }
                for (g_52 = 0; (g_52 <= 0); g_52 += 1)
                { /* block id: 284 */
                    if (((*l_545) = (safe_add_func_int64_t_s_s((safe_div_func_int64_t_s_s(l_27[g_52][g_52], l_27[g_26][g_26])), (safe_unary_minus_func_int16_t_s((safe_add_func_uint32_t_u_u((safe_mul_func_int8_t_s_s((1UL > ((l_555 != (void*)0) || l_27[g_26][g_26])), (safe_mul_func_int16_t_s_s((*g_228), ((*l_528) & (safe_mod_func_int16_t_s_s((l_27[g_26][g_26] , (-5L)), (*l_528)))))))), 0x896D6824L))))))))
                    { /* block id: 286 */
                        int8_t l_562 = 0L;
                        int32_t *l_570 = &l_568;
                        (*l_545) = ((p_25 > ((safe_mul_func_int8_t_s_s(g_28, (((**l_539) = (-10L)) && (l_562 , (((((l_562 != p_25) | (6L & g_238)) < ((safe_rshift_func_uint8_t_u_s(((safe_mod_func_uint64_t_u_u(l_567, l_568)) & p_25), l_568)) , (*g_82))) != l_569) >= g_240))))) ^ p_25)) , p_25);
                    }
                    { /* block id: 292 */
                    }
                }
            }
        }
    }
}
/* 
 */
static const int8_t  func_31(int8_t  p_32, int32_t  p_33, const int32_t  p_34, const int32_t  p_35, const int16_t  p_36)
{ /* block id: 166 */
    uint32_t l_382[2][3][2];
    int32_t l_384 = 1L;
    int i, j, k;
    for (i = 0; i < 2; i++)
    if (l_382[1][2][0])
    { /* block id: 167 */
    }
    else
    { /* block id: 171 */
        int32_t l_397 = 1L;
        uint16_t *l_520[4][2][1];
        int i, j, k;
        for (i = 0; i < 2; i++)
        for (i = 0; i < 4; i++)
        {
            for (j = 0; j < 2; j++)
            {
                for (k = 0; k < 1; k++)
                    l_520[i][j][k] = (void*)0;
            }
        }
        for (g_378 = 0; (g_378 <= 4); g_378 += 1)
        { /* block id: 174 */
            int16_t *l_476 = &g_411;
            for (g_240 = 0; (g_240 <= 1); g_240 += 1)
            { /* block id: 177 */
                int32_t l_410[7] = {0xD0834960L,0xD0834960L,0xD0834960L,0xD0834960L,0xD0834960L,0xD0834960L,0xD0834960L};
                uint16_t **l_498 = &g_244;
                uint16_t ***l_497 = &l_498;
                for (l_384 = 0; (l_384 <= 1); l_384 += 1)
                { /* block id: 181 */
                    for (i = 0; i < 1; i++)
                    g_415++;
                }
                for (g_227 = 4; (g_227 >= 0); g_227 -= 1)
                { /* block id: 186 */
                    for (g_238 = 0; (g_238 <= 1); g_238 += 1)
                    { /* block id: 189 */
                    }
                }
                for (g_412 = 0; (g_412 <= 1); g_412 += 1)
                { /* block id: 208 */
                    uint8_t *l_490 = &g_90;
                    p_33 = ((~((*l_476) = (safe_mul_func_uint8_t_u_u((g_415++), (safe_mul_func_int8_t_s_s(((0xCB2381BBB57777DFLL || l_410[3]) < p_32), (--(*l_490)))))))) != ((p_32 , (g_92 > 0x34ACBDE051273418LL)) ^ ((safe_rshift_func_uint16_t_u_s((safe_mod_func_int64_t_s_s((((void*)0 == l_497) && (0x37FCL || l_410[2])), 0xBF332B70223307EALL)), 15)) <= g_413[3])));
                }
                for (l_397 = 1; (l_397 >= 0); l_397 -= 1)
                { /* block id: 233 */
                }
            }
        }
    }
}
/* 
 */
static int8_t  func_37(uint32_t  p_38, int32_t * p_39, int32_t * p_40, uint32_t  p_41, uint16_t  p_42)
{ /* block id: 138 */
    { /* block id: 142 */
        { /* block id: 146 */
            { /* block id: 158 */
            }
        }
    }
}
static uint32_t  func_43(int64_t  p_44, uint16_t  p_45)
{ /* block id: 21 */
}
/* 
 */
static uint16_t ** func_60(uint16_t * p_61, uint8_t  p_62, int8_t  p_63)
{ /* block id: 71 */
    { /* block id: 72 */
    }
    { /* block id: 79 */
        { /* block id: 87 */
            { /* block id: 98 */
                {
                }
            }
            { /* block id: 121 */
            }
        }
        { /* block id: 124 */
            { /* block id: 128 */
            }
        }
    }
}
/* 
 */
static uint64_t  func_75(int64_t  p_76, uint16_t * p_77)
{ /* block id: 23 */
    { /* block id: 26 */
        { /* block id: 30 */
            { /* block id: 33 */
                { /* block id: 35 */
                    { /* block id: 38 */
                    }
                    { /* block id: 45 */
                    }
                }
            }
        }
    }
}
int main (int argc, char* argv[])
{
}
/************************ statistics *************************
********************* end of statistics **********************/